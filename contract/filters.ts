/**
 * The filters a list and a search share — `tag` (any of several),
 * `updated_since`, `published_after`, `published_before`, `author`,
 * `when=upcoming|past`, `exclude` and a collection's field filters — as a parsed query holds them, and as
 * a canonical link writes them. Declared, and so read, in
 * routes/parameters.ts; evaluated by list-query.ts.
 */
import type { WHEN_VALUES } from './routes/parameters.ts'

export type When = (typeof WHEN_VALUES)[number]

export interface RecordFilter {
  /** Only items with any of these tags (lowercase, each once). */
  tag?: readonly string[] | undefined
  /** Only items updated after this instant: canonical RFC 3339 in UTC (`2026-03-01T00:00:00Z`). */
  updatedSince?: string
  /** Only items published after this: a date (after that day, UTC) or a canonical UTC date-time. */
  publishedAfter?: string
  /** Only items published before this: a date (before that day, UTC) or a canonical UTC date-time. */
  publishedBefore?: string
  /** Only items with this person among their authors or speakers: a person slug (people.ts). */
  author?: string
  /** Only items that start after the request's clock (`upcoming`) or at or before it (`past`). */
  when?: When
  /** Leave out the item with this slug. */
  exclude?: string
  /** Only items whose field has any of these values, by field (a collection's `filter: true` fields; lists only). */
  match?: Readonly<Record<string, readonly (string | boolean)[]>>
}

/** The filter as query parameters, in a fixed order, for canonical links (`&tag=a,b&author=…`). */
export function filterHref(filter: RecordFilter): string {
  let href = ''
  if (filter.tag !== undefined) href += `&tag=${filter.tag.map(encodeURIComponent).join(',')}`
  if (filter.updatedSince !== undefined) href += `&updated_since=${encodeURIComponent(filter.updatedSince)}`
  if (filter.publishedAfter !== undefined) href += `&published_after=${encodeURIComponent(filter.publishedAfter)}`
  if (filter.publishedBefore !== undefined) href += `&published_before=${encodeURIComponent(filter.publishedBefore)}`
  if (filter.author !== undefined) href += `&author=${filter.author}`
  if (filter.when !== undefined) href += `&when=${filter.when}`
  if (filter.exclude !== undefined) href += `&exclude=${filter.exclude}`
  for (const [field, values] of Object.entries(filter.match ?? {}))
    href += `&${field}=${values.map((v) => encodeURIComponent(String(v))).join(',')}`
  return href
}

/** Whether the filter leaves any item out. */
export function isFiltered(filter: RecordFilter): boolean {
  return (
    filter.tag !== undefined ||
    filter.updatedSince !== undefined ||
    filter.publishedAfter !== undefined ||
    filter.publishedBefore !== undefined ||
    filter.author !== undefined ||
    filter.when !== undefined ||
    filter.exclude !== undefined ||
    filter.match !== undefined
  )
}
