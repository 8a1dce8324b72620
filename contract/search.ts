/**
 * The search's contract: where the build writes the index, what one indexed
 * document holds, how fields are weighted, and the rules of a search request
 * (`GET /api/search`, the MCP search tools). Terms: search-terms.ts; the
 * file's layout: search-index-format.ts.
 */
import { isCollectionName, type CollectionName, type ContentModel } from './model/model.ts'
import { filterHref, parseFilters, type RecordFilter } from './filters.ts'
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PAGE } from './query.ts'
import { parseInteger, single, type ParameterError } from './query-values.ts'
import { SEARCH_PATH } from './public-paths.ts'

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
const QUERY_RE = new RegExp(QUERY_PATTERN)
/** Longest snippet of a hit: gateway/search cuts a window of 240 characters, plus an ellipsis at either end. */
export const MAX_SNIPPET_LENGTH = 250
/** Most matched terms listed per hit (a short prefix can match many indexed words); each is cut to MAX_QUERY_LENGTH. */
export const MAX_MATCHED_TERMS = 50

/** A search: the words, where to look, the list filters (filters.ts) and the page. */
export interface SearchQuery extends RecordFilter {
  /** The words to look for, trimmed, 1..MAX_QUERY_LENGTH characters. */
  query: string
  collection?: CollectionName
  limit: number
  page: number
  /** A multilingual site's locale other than the default (the links keep it). */
  locale?: string
}

export type ParsedSearchQuery = { ok: true; query: SearchQuery } | { ok: false; errors: ParameterError[] }

/** Validate `q`, `collection` (one of `model`'s), the filters, `limit` and `page`; unknown parameters are ignored. */
export function parseSearchQuery(params: URLSearchParams, model: ContentModel): ParsedSearchQuery {
  const errors: ParameterError[] = []
  // The bounds openapi.json states, on the value as sent: 1..MAX_QUERY_LENGTH characters, not all spaces.
  const raw = single(params, 'q', errors)
  if (raw === undefined && !params.getAll('q').length)
    errors.push({ parameter: 'q', message: 'is required: the words to look for, e.g. ?q=data+contracts' })
  else if (raw !== undefined && raw.length > MAX_QUERY_LENGTH)
    errors.push({ parameter: 'q', message: `must be at most ${MAX_QUERY_LENGTH} characters, got ${raw.length}` })
  else if (raw !== undefined && !QUERY_RE.test(raw)) errors.push({ parameter: 'q', message: 'must not be empty' })
  const q = raw?.trim()
  const name = single(params, 'collection', errors)
  if (name !== undefined && !isCollectionName(model, name))
    errors.push({ parameter: 'collection', message: `must be one of ${model.names.join(', ')}` })
  // Each hit is tested: `author` keeps items with people, `when` events and webinars, whatever `collection` says.
  const filter = parseFilters(params, errors)
  const limit = parseInteger(params, 'limit', DEFAULT_LIMIT, MAX_LIMIT, errors)
  const page = parseInteger(params, 'page', 1, MAX_PAGE, errors)
  if (errors.length) return { ok: false, errors }
  const query: SearchQuery = { query: q!, limit, page, ...filter }
  if (name !== undefined) query.collection = name
  return { ok: true, query }
}

/** Canonical href of a search: q and limit always, page when not 1, collection and each filter when set. */
export function searchHref(query: SearchQuery): string {
  let href = `${SEARCH_PATH}?q=${encodeURIComponent(query.query)}&limit=${query.limit}`
  if (query.page !== 1) href += `&page=${query.page}`
  if (query.collection !== undefined) href += `&collection=${query.collection}`
  href += filterHref(query)
  if (query.locale !== undefined) href += `&locale=${query.locale}`
  return href
}
