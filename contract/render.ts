/**
 * The one renderer: turns the content index into response bodies. The build
 * calls it to write files, the gateway calls it for the long tail, so the same
 * request gives the same bytes on either path.
 */
import { BodyTreeJson } from './body-tree.ts'
import type { CollectionModel } from './model/model.ts'
import type { ContentRecord, FullRecord } from './records.ts'
import { selectFields, selectItems } from './list-query.ts'
import { listHref, type ListQuery } from './query.ts'

export interface ListMeta {
  limit: number
  page: number
  count: number
  total: number
  pages: number
}

export interface ListLinks {
  self: string
  next: string | null
  prev: string | null
}

export interface ListEnvelope {
  data: ContentRecord[]
  meta: ListMeta
  links: ListLinks
}

/** Pagination of `total` matching items: page counts and self/next/prev links. */
export function paginate(collection: string, total: number, query: ListQuery): { pages: number; links: ListLinks } {
  const pages = Math.ceil(total / query.limit)
  const prevPage = Math.min(query.page - 1, pages)
  return {
    pages,
    links: {
      self: listHref(collection, query),
      next: query.page < pages ? listHref(collection, { ...query, page: query.page + 1 }) : null,
      prev: prevPage >= 1 ? listHref(collection, { ...query, page: prevPage }) : null,
    },
  }
}

/**
 * The list envelope of `query` over `items` (the collection's records in its
 * own order, newest first): the filters, the order, the page, the fields.
 * `now` (epoch ms) is the clock `when=` reads.
 */
export function listEnvelope(
  collection: CollectionModel,
  items: readonly ContentRecord[],
  query: ListQuery,
  now = Date.now(),
): ListEnvelope {
  const matching = selectItems(collection, items, query, now)
  const { pages, links } = paginate(collection.name, matching.length, query)
  const start = (query.page - 1) * query.limit
  const page = matching.slice(start, start + query.limit)
  const { fields } = query
  const data = fields ? page.map((r) => selectFields(r, fields) as ContentRecord) : page
  return {
    data,
    meta: { limit: query.limit, page: query.page, count: data.length, total: matching.length, pages },
    links,
  }
}

export function renderList(
  collection: CollectionModel,
  items: readonly ContentRecord[],
  query: ListQuery,
  now = Date.now(),
): string {
  return JSON.stringify(listEnvelope(collection, items, query, now))
}

/**
 * renderList's bytes, each item's JSON taken from `itemJson` (a cache of
 * JSON.stringify(item)): the build renders a hundred lists of one collection,
 * and the dev server again on each edit, so each summary is serialised once.
 */
export function renderListFrom(
  collection: CollectionModel,
  items: readonly ContentRecord[],
  query: ListQuery,
  itemJson: (item: ContentRecord) => string,
): string {
  const { data, meta, links } = listEnvelope(collection, items, query)
  return `${LIST_HEAD}${data.map(itemJson).join(',')}${listTail(meta, links)}`
}

/** A list's bytes are LIST_HEAD, its items' JSON joined by commas, then listTail: JSON.stringify's order. */
const LIST_HEAD = '{"data":['

function listTail(meta: ListMeta, links: ListLinks): string {
  return `],"meta":${JSON.stringify(meta)},"links":${JSON.stringify(links)}}`
}

/**
 * JSON.stringify(record), byte for byte. A record of the build holds its
 * `body.tree` as JSON text (BodyTreeJson): that text goes in as it is, the
 * rest of the record serialised key by key in its own order around it, as
 * JSON.stringify would (a key whose value has no JSON, like undefined, is
 * left out).
 */
export function renderItem(record: FullRecord): string {
  const { body } = record
  const { tree } = body
  if (!(tree instanceof BodyTreeJson)) return JSON.stringify(record)
  return objectJson(record, (key, value) =>
    key === 'body' ? objectJson(body, (k, v) => (k === 'tree' ? tree.json : JSON.stringify(v))) : JSON.stringify(value),
  )
}

/** `value`'s own keys in JSON.stringify's order, each value's JSON from `json`. */
function objectJson(value: object, json: (key: string, value: unknown) => string | undefined): string {
  let out = ''
  for (const [key, v] of Object.entries(value)) {
    const text = json(key, v)
    if (text !== undefined) out += `${out ? ',' : ''}${JSON.stringify(key)}:${text}`
  }
  return `{${out}}`
}

/** The RFC 8288 Link header of a page's next and previous links; undefined when there is neither. */
export function linkHeader(links: { next: string | null; prev: string | null }): string | undefined {
  const parts = [links.next && `<${links.next}>; rel="next"`, links.prev && `<${links.prev}>; rel="prev"`].filter(
    Boolean,
  )
  return parts.length ? parts.join(', ') : undefined
}
