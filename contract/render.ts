/**
 * The one renderer: turns the content index into response bodies. The build
 * calls it to write files, the gateway calls it for the long tail, so the same
 * request gives the same bytes on either path.
 */
import type { ContentRecord, FullRecord } from './records.ts'
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

/** Items matching the query's filters (tag, updated after), in index order. */
export function filterItems(items: readonly ContentRecord[], query: ListQuery): readonly ContentRecord[] {
  const { tag, updatedSince } = query
  const after = updatedSince === undefined ? undefined : Date.parse(updatedSince)
  if (tag === undefined && after === undefined) return items
  return items.filter(
    (item) =>
      (tag === undefined || item.tags.includes(tag)) && (after === undefined || Date.parse(item.updated_at) > after),
  )
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

/** Build the list envelope for `items` (already sorted, newest first). */
export function listEnvelope(collection: string, items: readonly ContentRecord[], query: ListQuery): ListEnvelope {
  const matching = filterItems(items, query)
  const { pages, links } = paginate(collection, matching.length, query)
  const start = (query.page - 1) * query.limit
  const data = matching.slice(start, start + query.limit)
  return {
    data,
    meta: { limit: query.limit, page: query.page, count: data.length, total: matching.length, pages },
    links,
  }
}

export function renderList(collection: string, items: readonly ContentRecord[], query: ListQuery): string {
  return JSON.stringify(listEnvelope(collection, items, query))
}

/**
 * renderList's bytes, each item's JSON taken from `itemJson` (a cache of
 * JSON.stringify(item)): the build renders a hundred lists of one collection,
 * and the dev server again on each edit, so each summary is serialised once.
 */
export function renderListFrom(
  collection: string,
  items: readonly ContentRecord[],
  query: ListQuery,
  itemJson: (item: ContentRecord) => string,
): string {
  const { data, meta, links } = listEnvelope(collection, items, query)
  return `{"data":[${data.map(itemJson).join(',')}],"meta":${JSON.stringify(meta)},"links":${JSON.stringify(links)}}`
}

export function renderItem(record: FullRecord): string {
  return JSON.stringify(record)
}

/** The RFC 8288 Link header of a page's next and previous links; undefined when there is neither. */
export function linkHeader(links: { next: string | null; prev: string | null }): string | undefined {
  const parts = [links.next && `<${links.next}>; rel="next"`, links.prev && `<${links.prev}>; rel="prev"`].filter(
    Boolean,
  )
  return parts.length ? parts.join(', ') : undefined
}
