/**
 * Full-text search over the build's MiniSearch index (BM25 ranking, prefix
 * and light fuzzy matching), loaded once per snapshot on first use: the one
 * ranking behind `GET /api/search` and the MCP search tools. Snippets come
 * from the item's plain-text body around the best match.
 */
import MiniSearch from 'minisearch'
import { isCollectionName, type CollectionName } from '../../build/contract/collections.ts'
import { MAX_QUERY_LENGTH, SEARCH_BOOST, SEARCH_INDEX_FILE, SEARCH_INDEX_OPTIONS, type SearchDocument } from '../../build/contract/search.ts'
import type { Snapshot } from '../artifacts.ts'
import { readItem } from '../content/items.ts'
import { snippetOf } from './snippet.ts'
import { AppError } from '../../build/contract/errors.ts'

export { MAX_QUERY_LENGTH }

export class SearchIndexError extends AppError {
  readonly code = 'SEARCH_INDEX_UNAVAILABLE'
}

export interface SearchOptions {
  query: string
  collection?: CollectionName
  /** Only items with this tag. */
  tag?: string
  limit: number
  /** 1-based. */
  page: number
}

export interface SearchHit {
  collection: CollectionName
  slug: string
  score: number
  snippet: string
  matched_terms: string[]
}

const indexes = new WeakMap<Snapshot, MiniSearch<SearchDocument>>()

function indexOf(snapshot: Snapshot): MiniSearch<SearchDocument> {
  const cached = indexes.get(snapshot)
  if (cached) return cached
  const file = snapshot.files.get(SEARCH_INDEX_FILE)
  if (!file) throw new SearchIndexError(`This build has no search index (${SEARCH_INDEX_FILE}); rebuild with \`npm run build\`.`)
  const index = MiniSearch.loadJSON<SearchDocument>(file.body.toString('utf8'), SEARCH_INDEX_OPTIONS)
  indexes.set(snapshot, index)
  return index
}

/** The matches of `query`, best first: how many in all, and the hits of one page. */
export function search(snapshot: Snapshot, options: SearchOptions): { total: number; hits: SearchHit[] } {
  const { query, collection, tag } = options
  const results = indexOf(snapshot).search(query.slice(0, MAX_QUERY_LENGTH), {
    boost: SEARCH_BOOST,
    // Prefix matching for words being typed, one typo forgiven in long words.
    prefix: (term) => term.length >= 4,
    fuzzy: (term) => (term.length >= 8 ? 0.15 : false),
    filter: collection || tag ? (r) => matches(snapshot, r.collection, r.slug, collection, tag) : undefined,
  })
  const start = (options.page - 1) * options.limit
  const hits: SearchHit[] = []
  for (const r of results.slice(start, start + options.limit)) {
    const c = String(r.collection)
    const slug = String(r.slug)
    if (!isCollectionName(c)) continue
    const text = readItem(snapshot, c, slug)?.body.text ?? ''
    hits.push({ collection: c, slug, score: Math.round(r.score * 1000) / 1000, snippet: snippetOf(text, query, r.terms), matched_terms: r.terms })
  }
  return { total: results.length, hits }
}

function matches(snapshot: Snapshot, c: unknown, slug: unknown, collection: CollectionName | undefined, tag: string | undefined): boolean {
  if (collection !== undefined && c !== collection) return false
  if (tag === undefined) return true
  const name = String(c)
  return isCollectionName(name) && (snapshot.bySlug[name].get(String(slug))?.tags.includes(tag) ?? false)
}
