/**
 * A search request (`GET /api/search`, the MCP search tools): the words,
 * where to look, the list filters (filters.ts) and the page, read by the
 * search route's own declarations (routes/search-changes-feeds.ts), so what the document
 * states is what is accepted; and its canonical link.
 */
import type { CollectionName, ContentModel } from './model/model.ts'
import { filterHref, type RecordFilter } from './filters.ts'
import { SEARCH_PATH } from './public-paths.ts'
import type { ParameterError } from './query-values.ts'
import { readQuery } from './routes/query-reader.ts'
import { search } from './routes/search-changes-feeds.ts'

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

/**
 * Validate `q`, `collection` (one of `model`'s), the filters, `limit` and `page`; unknown parameters are ignored.
 * Each hit is tested: `author` keeps items with people, `when` events and webinars, whatever `collection` says.
 */
export function parseSearchQuery(params: URLSearchParams, model: ContentModel): ParsedSearchQuery {
  const errors: ParameterError[] = []
  // The declarations' keys are SearchQuery's, q is required and limit and page have defaults.
  const query = readQuery(search.parameters(model), params, errors) as unknown as SearchQuery
  return errors.length ? { ok: false, errors } : { ok: true, query }
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
