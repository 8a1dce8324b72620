/**
 * The search's contract: where the build writes the index, what one indexed
 * document holds, how fields are weighted, and the bounds of a search's
 * words. The request (`GET /api/search`, the MCP search tools):
 * search-query.ts; terms: search-terms.ts; the file's layout:
 * search-index-format.ts.
 */
import type { CollectionName } from './model/model.ts'

export const SEARCH_INDEX_FILE = '_build/search-index.bin'

/** A multilingual site's index of a locale other than the default (its translations, and its fallbacks). */
export function localeSearchIndexFile(locale: string): string {
  return `_build/search-index.${locale}.bin`
}

/** One indexed item (build/emit/search-index.ts). */
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

/** Field weights: a hit in the title counts more than one in the body. */
export const SEARCH_BOOST: Record<(typeof SEARCH_FIELDS)[number], number> = {
  title: 3,
  summary: 2,
  tags: 1.5,
  details: 1.5,
  text: 1,
}

/** BM25+ (k1, b, and the lower bound δ of a matching field's term weight). */
export const BM25 = { k: 1.2, b: 0.7, d: 0.5 } as const

/** Longest query: longer ones say more than any item matches on and cost more to run. */
export const MAX_QUERY_LENGTH = 200
/** A query has something besides spaces (it is trimmed before the search); the document states it as the pattern of `q`. */
export const QUERY_PATTERN = '\\S'
/** Longest snippet of a hit: gateway/search cuts a window of 240 characters, plus an ellipsis at either end. */
export const MAX_SNIPPET_LENGTH = 250
/** Most matched terms listed per hit (a short prefix can match many indexed words); each is cut to MAX_QUERY_LENGTH. */
export const MAX_MATCHED_TERMS = 50
