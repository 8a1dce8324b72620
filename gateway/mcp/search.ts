/**
 * Full-text search over the build's MiniSearch index (BM25 ranking, prefix
 * and light fuzzy matching), loaded once per snapshot on first use. Snippets
 * come from the item's plain-text body around the best match.
 */
import MiniSearch from 'minisearch'
import { isCollectionName, type CollectionName } from '../../build/contract/collections.ts'
import { SEARCH_BOOST, SEARCH_INDEX_FILE, SEARCH_INDEX_OPTIONS, type SearchDocument } from '../../build/contract/search.ts'
import type { Snapshot } from '../artifacts.ts'
import { readItem } from './content.ts'

export const MAX_QUERY_LENGTH = 200
export const MAX_SEARCH_RESULTS = 25
const SNIPPET_LENGTH = 240

export class SearchIndexError extends Error {
  override readonly name = 'SearchIndexError'
  readonly code = 'SEARCH_INDEX_UNAVAILABLE'
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

export function search(
  snapshot: Snapshot,
  query: string,
  options: { limit: number; collection?: CollectionName },
): { total: number; hits: SearchHit[] } {
  const { collection } = options
  const results = indexOf(snapshot).search(query.slice(0, MAX_QUERY_LENGTH), {
    boost: SEARCH_BOOST,
    // Prefix matching for words being typed, one typo forgiven in long words.
    prefix: (term) => term.length >= 4,
    fuzzy: (term) => (term.length >= 8 ? 0.15 : false),
    filter: collection ? (r) => r.collection === collection : undefined,
  })
  const hits: SearchHit[] = []
  for (const r of results.slice(0, options.limit)) {
    const c = String(r.collection)
    const slug = String(r.slug)
    if (!isCollectionName(c)) continue
    const text = readItem(snapshot, c, slug)?.body.text ?? ''
    hits.push({ collection: c, slug, score: Math.round(r.score * 1000) / 1000, snippet: snippetOf(text, query, r.terms), matched_terms: r.terms })
  }
  return { total: results.length, hits }
}

/** A window of the text around the whole query if it occurs, else around the first matched term. */
export function snippetOf(text: string, query: string, terms: readonly string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const lower = flat.toLowerCase()
  let at = lower.indexOf(query.trim().toLowerCase())
  if (at < 0) {
    const positions = terms.map((t) => wordIndex(lower, t)).filter((i) => i >= 0)
    at = positions.length ? Math.min(...positions) : 0
  }
  let start = Math.max(0, at - SNIPPET_LENGTH / 3)
  if (start > 0) start = flat.indexOf(' ', start) + 1 || start
  let end = Math.min(flat.length, start + SNIPPET_LENGTH)
  if (end < flat.length) end = flat.lastIndexOf(' ', end) > start ? flat.lastIndexOf(' ', end) : end
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`
}

/** Position of `term` at the start of a word. */
function wordIndex(lower: string, term: string): number {
  const re = new RegExp(`(^|[^\\p{L}\\p{N}])${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u')
  const m = re.exec(lower)
  return m ? m.index + m[1]!.length : -1
}
