/**
 * The list query rules of the API — `limit`, `page`, the filters
 * (filters.ts), `sort` and `fields` — shared by the build (which pre-renders
 * page 1 of every limit), the gateway (which answers the rest) and the MCP
 * tools (which take the same options). Evaluated by list-query.ts; declared
 * for the document in routes/parameters.ts.
 */
import { datedCollections, listed, type CollectionModel, type ContentModel } from './model/model.ts'
import { filterHref, isFiltered, parseFilters, type FilterScope, type RecordFilter } from './filters.ts'
import { selectableFields } from './records.ts'
import { commaList, parseInteger, type ParameterError } from './query-values.ts'

export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 100
export const MAX_PAGE = 100_000

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

/** Validate a list query of `collection` (of `model`); unknown parameters are ignored. */
export function parseListQuery(
  params: URLSearchParams,
  collection: CollectionModel,
  model: ContentModel,
): ParsedListQuery {
  const errors: ParameterError[] = []
  const limit = parseInteger(params, 'limit', DEFAULT_LIMIT, MAX_LIMIT, errors)
  const page = parseInteger(params, 'page', 1, MAX_PAGE, errors)
  const { tag, ...filter } = parseFilters(params, errors, scopeOf(collection, model))
  const sort = parseSort(params, collection, errors)
  const fields = parseFields(params, collection, 'summary', errors)
  if (errors.length) return { ok: false, errors }
  const query: ListQuery = { limit, page, tag, ...filter }
  if (sort !== undefined) query.sort = sort
  if (fields !== undefined) query.fields = fields
  return { ok: true, query }
}

/** Where `author` and `when` do not apply to a collection, why (naming the collections where they do). */
export function scopeOf(collection: CollectionModel, model: ContentModel): FilterScope {
  const scope: FilterScope = {}
  const { name } = collection
  if (collection.people.length === 0) scope.author = `does not apply to ${name}: ${whoListsPeople(model)}`
  if (!collection.dated) {
    const dated = datedCollections(model)
    scope.when = dated.length
      ? `does not apply to ${name}: only ${listed(dated)} start at a time (starts_at)`
      : `does not apply to ${name}: no collection starts at a time (starts_at)`
  }
  return scope
}

/** `only blog-posts (authors), webinars and events (speakers) list people`: the collections by the fields they list people in. */
function whoListsPeople(model: ContentModel): string {
  const byFields = new Map<string, string[]>()
  for (const name of model.names) {
    const { people } = model.collections[name]!
    if (people.length) byFields.set(people.join(', '), [...(byFields.get(people.join(', ')) ?? []), name])
  }
  if (!byFields.size) return 'no collection lists people'
  return `only ${listed([...byFields].map(([fields, names]) => `${listed(names)} (${fields})`))} list people`
}

/**
 * `sort`: one or more of the collection's sort keys, separated by commas,
 * each `-` first for descending, each field once.
 */
export function parseSort(
  params: URLSearchParams,
  collection: CollectionModel,
  errors: ParameterError[],
): readonly string[] | undefined {
  const keys = commaList(params, 'sort', errors)
  if (keys === undefined) return undefined
  const allowed = collection.sortKeys
  const fields = keys.map((k) => (k.startsWith('-') ? k.slice(1) : k))
  const unknown = fields.find((f) => !allowed.includes(f))
  const twice = fields.find((f, i) => fields.indexOf(f) !== i)
  if (unknown === undefined && twice === undefined) return keys
  errors.push({
    parameter: 'sort',
    message: `${unknown !== undefined ? `has no key ${JSON.stringify(unknown.slice(0, 40))}` : `names ${twice} twice`}: give one or more of ${allowed.join(', ')}, separated by commas, each once, with - before it for descending (-published_at)`,
  })
  return undefined
}

/**
 * `fields`: one or more field names of the collection's records (its list
 * form, or its full form for an item), separated by commas; a name given
 * twice counts once. Given several collections (MCP's list_upcoming lists
 * events and webinars together), a name of any of them.
 */
export function parseFields(
  params: URLSearchParams,
  collection: CollectionModel | readonly CollectionModel[],
  form: 'summary' | 'full',
  errors: ParameterError[],
): readonly string[] | undefined {
  const names = commaList(params, 'fields', errors)
  if (names === undefined) return undefined
  const collections = Array.isArray(collection) ? collection : [collection as CollectionModel]
  const allowed = [...new Set(collections.flatMap((c) => selectableFields(c, form)))]
  const unknown = names.find((n) => !allowed.includes(n))
  if (unknown === undefined && names.length <= allowed.length) return [...new Set(names)]
  errors.push({
    parameter: 'fields',
    message: `${unknown !== undefined ? `has no field ${JSON.stringify(unknown.slice(0, 40))}` : 'names too many fields'}: give one or more of ${allowed.join(', ')}, separated by commas (id and type always come)`,
  })
  return undefined
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
