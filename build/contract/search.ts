/**
 * The search index's contract: where the build writes it, what one indexed
 * document holds, and the options it is built and loaded with (an index must
 * be loaded with the options it was built with).
 */
import type { Options } from 'minisearch'
import type { CollectionName } from './collections.ts'

export const SEARCH_INDEX_FILE = '_build/search-index.json'

/** One indexed item; only `SEARCH_STORED_FIELDS` survive into the index file. */
export interface SearchDocument {
  /** `<collection>/<slug>`: unique across collections. */
  id: string
  collection: CollectionName
  slug: string
  title: string
  summary: string
  tags: string
  /** Names a reader searches by: customer, industry, speakers, authors, products, places. */
  details: string
  text: string
}

export const SEARCH_FIELDS = ['title', 'summary', 'tags', 'details', 'text'] as const
export const SEARCH_STORED_FIELDS = ['collection', 'slug'] as const

export const SEARCH_INDEX_OPTIONS: Options<SearchDocument> = {
  idField: 'id',
  fields: [...SEARCH_FIELDS],
  storeFields: [...SEARCH_STORED_FIELDS],
}

/** Field weights at query time: a hit in the title counts more than one in the body. */
export const SEARCH_BOOST: Partial<Record<(typeof SEARCH_FIELDS)[number], number>> = {
  title: 3,
  summary: 2,
  tags: 1.5,
  details: 1.5,
}
