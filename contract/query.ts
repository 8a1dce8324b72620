/**
 * The list query of the API — `limit`, `page`, the filters (filters.ts),
 * `sort` and `fields` — as the gateway, the MCP tools and the build's links
 * hold it. Read from a request by the list route's own declarations
 * (routes/content.ts, routes/parameters.ts), so what the document states is
 * what is accepted; evaluated by list-query.ts.
 */
import { filterHref, isFiltered, type RecordFilter } from './filters.ts'
import type { CollectionModel, ContentModel } from './model/model.ts'
import type { ParameterError } from './query-values.ts'
import { FIELD_FILTER_KEY, fieldsOf, filterFields } from './routes/collection-parameters.ts'
import { list } from './routes/content.ts'
import { readParameter, readQuery } from './routes/query-reader.ts'

export interface ListQuery extends RecordFilter {
  limit: number
  page: number
  tag: readonly string[] | undefined
  /** Sort keys in order, as given: a field, `-` before it for descending. The collection's own order breaks ties. */
  sort?: readonly string[]
  /** Only these fields of each item (`id` and `type` always), as given. */
  fields?: readonly string[]
  /** A multilingual site's locale other than the default (the links keep it); undefined for the default. */
  locale?: string
}

export type ParsedListQuery = { ok: true; query: ListQuery } | { ok: false; errors: ParameterError[] }

/**
 * Validate a list query of `collection` (of `model`) with the list route's
 * parameters for it, compiled the first time; unknown parameters are ignored.
 */
export function parseListQuery(
  params: URLSearchParams,
  collection: CollectionModel,
  model: ContentModel,
): ParsedListQuery {
  const errors: ParameterError[] = []
  // The declarations' keys are ListQuery's, and limit and page have defaults (test/contract/query.test.ts).
  const values = readQuery(list.parameters(collection.name, model), params, errors)
  if (errors.length) return { ok: false, errors }
  const query = values as unknown as ListQuery & Record<string, unknown>
  // The field filters' values, gathered under `match` in the order the collection declares them.
  let match: Record<string, readonly (string | boolean)[]> | undefined
  for (const [name] of filterFields(collection)) {
    const key = `${FIELD_FILTER_KEY}${name}`
    if (query[key] === undefined) continue
    match ??= {}
    match[name] = query[key] as readonly (string | boolean)[]
    delete query[key]
  }
  if (match) query.match = match
  return { ok: true, query }
}

/**
 * `fields` of a collection's records (its list form, or its full form for an
 * item); of several collections (MCP's list_upcoming lists events and
 * webinars together), a field of any.
 */
export function parseFields(
  params: URLSearchParams,
  model: ContentModel,
  collection: CollectionModel | readonly CollectionModel[],
  form: 'summary' | 'full',
  errors: ParameterError[],
): readonly string[] | undefined {
  return readParameter(fieldsOf(model, collection, form), params, errors) as readonly string[] | undefined
}

/** Canonical href of a list request: limit always, page when not 1, then each filter, sort and fields when set. */
export function listHref(collection: string, query: ListQuery): string {
  let href = `/api/${collection}?limit=${query.limit}`
  if (query.page !== 1) href += `&page=${query.page}`
  href += filterHref(query)
  if (query.sort !== undefined) href += `&sort=${query.sort.join(',')}`
  if (query.fields !== undefined) href += `&fields=${query.fields.join(',')}`
  if (query.locale !== undefined) href += `&locale=${query.locale}`
  return href
}

/** True when this query is answered by a pre-rendered file (page 1 of the whole collection, in its order, every field). */
export function isPrerendered(query: ListQuery): boolean {
  return query.page === 1 && !isFiltered(query) && query.sort === undefined && query.fields === undefined
}
