/**
 * A list query evaluated over a collection's records: which items the
 * filters keep, in what order, with which fields — one implementation for the
 * build's files, the gateway's computed answers, search and the MCP tools,
 * so the same request gives the same items everywhere.
 *
 * `when=upcoming|past` is decided by a clock, the request's: an item is
 * upcoming until its `starts_at`, past from then on. The answer changes only
 * at a start, so the starts cut time into windows (`scheduleWindow`): an
 * answer is the same all through its window, may be kept for that long, and
 * never beyond it.
 *
 * @example selectItems(model.collections.events, records, { limit: 10, page: 1, tag: undefined, when: 'upcoming', sort: ['starts_at'] }, Date.now())
 */
import type { CollectionModel, CollectionName, ContentModel } from './model/model.ts'
import type { RecordFilter } from './filters.ts'
import { isPerson, type Person } from './people.ts'
import type { ListQuery } from './query.ts'
import type { ContentRecord } from './records.ts'

const DAY_MS = 86_400_000
const DATE = /^\d{4}-\d{2}-\d{2}$/

/**
 * The test of `filter` against one record at `now` (epoch ms; only `when`
 * reads it), or undefined when the filter keeps every record. `people`: the
 * fields `author` looks in (the collection's, or every collection's).
 */
export function recordMatcher(
  filter: RecordFilter,
  now: number,
  people: readonly string[],
): ((record: ContentRecord) => boolean) | undefined {
  const tests: ((record: ContentRecord) => boolean)[] = []
  const { tag, updatedSince, publishedAfter, publishedBefore, author, when, exclude, match } = filter
  if (tag !== undefined) tests.push((r) => tag.some((t) => r.tags.includes(t)))
  if (updatedSince !== undefined) {
    const after = Date.parse(updatedSince)
    tests.push((r) => Date.parse(r.updated_at) > after)
  }
  if (publishedAfter !== undefined) {
    // A date is a whole day: after it is from the next midnight (UTC) on.
    const day = DATE.test(publishedAfter)
    const bound = day ? Date.parse(`${publishedAfter}T00:00:00Z`) + DAY_MS : Date.parse(publishedAfter)
    tests.push(day ? (r) => Date.parse(r.published_at) >= bound : (r) => Date.parse(r.published_at) > bound)
  }
  if (publishedBefore !== undefined) {
    const bound = Date.parse(DATE.test(publishedBefore) ? `${publishedBefore}T00:00:00Z` : publishedBefore)
    tests.push((r) => Date.parse(r.published_at) < bound)
  }
  if (author !== undefined) tests.push((r) => peopleOf(r, people).some((p) => isPerson(p, author)))
  if (when !== undefined) {
    tests.push((r) => {
      const start = startOf(r)
      return start !== undefined && (when === 'upcoming' ? start > now : start <= now)
    })
  }
  if (exclude !== undefined) tests.push((r) => r.slug !== exclude)
  for (const [field, values] of Object.entries(match ?? {}))
    tests.push((r) => values.includes(r[field] as string | boolean))
  if (tests.length === 0) return undefined
  return (record) => tests.every((test) => test(record))
}

/** The people a record lists in `fields` (authors, speakers; a field of one person too). */
function peopleOf(record: ContentRecord, fields: readonly string[]): Person[] {
  return fields.flatMap((field) => {
    const value = record[field]
    return Array.isArray(value) ? (value as Person[]) : value && typeof value === 'object' ? [value as Person] : []
  })
}

/** A record's start (epoch ms), when it has one. */
function startOf(record: ContentRecord): number | undefined {
  const start = record.starts_at
  return typeof start === 'string' ? Date.parse(start) : undefined
}

const TITLES = new Intl.Collator('en', { sensitivity: 'base', numeric: true })

/**
 * `records` (in the collection's own order) by `keys` (`title`,
 * `-published_at`, …): dates by instant, the title by an English collation
 * ignoring case and accents, with numbers by value; a missing value last
 * either way; ties in the collection's own order.
 */
export function sortRecords(records: readonly ContentRecord[], keys: readonly string[]): ContentRecord[] {
  const order = keys.map((key) => ({ field: key.replace(/^-/, ''), sign: key.startsWith('-') ? -1 : 1 }))
  const keyed = records.map((record) => ({
    record,
    values: order.map(({ field }) => {
      const value = record[field]
      if (typeof value !== 'string') return undefined
      // The sort keys are the title and dates (a collection's own date and date-time fields among them).
      return field === 'title' ? value : Date.parse(value)
    }),
  }))
  keyed.sort((a, b) => {
    for (const [i, { sign }] of order.entries()) {
      const x = a.values[i]
      const y = b.values[i]
      if (x === y) continue
      if (x === undefined) return 1
      if (y === undefined) return -1
      const diff = typeof x === 'number' ? x - (y as number) : TITLES.compare(x, y as string)
      if (diff !== 0) return sign * diff
    }
    return 0
  })
  return keyed.map((k) => k.record)
}

/** Only `fields` of `record`, in the record's order; `id` and `type` always. */
export function selectFields(record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record))
    if (key === 'id' || key === 'type' || fields.includes(key)) out[key] = value
  return out
}

/** The items of a list query of `collection`, every page of it, in its order (page and fields aside). */
export function selectItems(
  collection: CollectionModel,
  items: readonly ContentRecord[],
  query: Pick<ListQuery, keyof RecordFilter | 'sort'>,
  now: number,
): readonly ContentRecord[] {
  const matches = recordMatcher(query, now, collection.people)
  const kept = matches ? items.filter(matches) : items
  return query.sort ? sortRecords(kept, query.sort) : kept
}

/** The starts of `collections`' records (epoch ms), ascending: where `when` answers change. */
export function startTimes(records: Iterable<ContentRecord>): number[] {
  const starts: number[] = []
  for (const record of records) {
    const start = startOf(record)
    if (start !== undefined && Number.isFinite(start)) starts.push(start)
  }
  return starts.sort((a, b) => a - b)
}

/** Where an instant is among the starts: see scheduleWindow. */
export interface ScheduleWindow {
  /** How many starts are at or before the instant: the same all through a window. */
  index: number
  /** The last start at or before it, when the window began (undefined: before the first start). */
  since?: number
  /** The next start, when the window ends (undefined: no start is ahead, the answer never changes). */
  changesAt?: number
}

/**
 * The window of `now` among `starts` (ascending): two instants of one window
 * have the same index, and a `when` answer is the same at both.
 */
export function scheduleWindow(starts: readonly number[], now: number): ScheduleWindow {
  let low = 0
  let high = starts.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (starts[mid]! <= now) low = mid + 1
    else high = mid
  }
  const window: ScheduleWindow = { index: low }
  if (low > 0) window.since = starts[low - 1]!
  if (low < starts.length) window.changesAt = starts[low]!
  return window
}

/** The collections a list or search of `collection` (all when undefined) draws starts from: the dated ones. */
export function scheduledCollections(model: ContentModel, collection?: CollectionName): CollectionName[] {
  return (collection ? [collection] : model.names).filter((c) => model.collections[c]?.dated)
}
