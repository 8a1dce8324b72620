/**
 * Upcoming items of the dated collections (events and webinars): decided at
 * request time from starts_at, so an item drops out the moment it starts,
 * whatever build is being served.
 */
import type { RecordFilter } from '../../contract/filters.ts'
import { recordMatcher } from '../../contract/list-query.ts'
import { DATED_DETAILS, declaredDetails, detailOf } from '../../contract/model/dated-details.ts'
import { datedCollections, type CollectionName, type ContentModel } from '../../contract/model/model.ts'
import type { ContentRecord } from '../../contract/records.ts'
import type { Snapshot } from '../artifacts.ts'
import { summariesIn } from '../content/locales.ts'
import { recordUri } from './content.ts'

/** A dated collection's name (site.yaml's `dated: true`). */
export type UpcomingCollection = CollectionName
/** Tags like `events-emea` mark the audience region of webinars and online events. */
const REGION_TAG = /^events-(.+)$/

export interface UpcomingItem {
  collection: UpcomingCollection
  slug: string
  type: string
  title: string
  summary: string
  url: string
  starts_at: string
  ends_at: string | null
  timezone: string | null
  resource_uri: string
  /** The dated details the model declares (contract/model/dated-details.ts): `attendance_mode`, `city`, …; null where an item has none. */
  [detail: string]: string | null
}

export interface UpcomingQuery {
  now: Date
  days?: number
  region?: string
  collection?: UpcomingCollection
  /** The list filters (tag, author, exclude, …), as REST's lists apply them. */
  filter?: RecordFilter
  /** A multilingual site's locale other than the default: its lists (translations, and where it falls back the default's). */
  locale?: string
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const REGION = DATED_DETAILS.find((d) => d.key === 'region')!

/** Region names an item answers to: its location's region and its `events-*` tags. */
export function regionsOf(record: ContentRecord): string[] {
  const out: string[] = []
  const region = detailOf(record, REGION)
  if (region) out.push(region)
  for (const tag of record.tags) {
    const m = REGION_TAG.exec(tag)
    if (m) out.push(m[1]!)
  }
  return out
}

/** Regions to offer for completion: location regions as written, then tag regions. */
export function knownRegions(snapshot: Snapshot): string[] {
  const set = new Set<string>()
  for (const c of datedCollections(snapshot.model))
    for (const r of snapshot.summaries(c)) for (const name of regionsOf(r)) set.add(name)
  return [...set].sort((a, b) => a.localeCompare(b))
}

function matchesRegion(record: ContentRecord, region: string): boolean {
  const wanted = region.trim().toLowerCase()
  return regionsOf(record).some((r) => r.toLowerCase() === wanted || r.toLowerCase().replace(/\s+/g, '-') === wanted)
}

/** The records of items starting after `now` (and within `days`, if given), soonest first. */
export function upcomingRecords(
  snapshot: Snapshot,
  query: UpcomingQuery,
): { collection: UpcomingCollection; record: ContentRecord }[] {
  const from = query.now.getTime()
  const until = query.days === undefined ? Infinity : from + query.days * 86_400_000
  const dated = datedCollections(snapshot.model)
  const people = [...new Set(dated.flatMap((c) => snapshot.model.collections[c]!.people))]
  const kept = query.filter ? recordMatcher(query.filter, from, people) : undefined
  const found: { collection: UpcomingCollection; record: ContentRecord; starts: number }[] = []
  for (const collection of query.collection ? [query.collection] : dated) {
    for (const record of summariesIn(snapshot, collection, query.locale)) {
      const starts = Date.parse(String(record.starts_at))
      if (!(starts > from && starts <= until)) continue
      if (query.region !== undefined && !matchesRegion(record, query.region)) continue
      if (kept && !kept(record)) continue
      found.push({ collection, record, starts })
    }
  }
  return found
    .sort((a, b) => a.starts - b.starts || (a.record.slug < b.record.slug ? -1 : 1))
    .map(({ collection, record }) => ({ collection, record }))
}

/** Items starting after `now` (and within `days`, if given), soonest first. */
export function upcoming(snapshot: Snapshot, query: UpcomingQuery): UpcomingItem[] {
  return upcomingRecords(snapshot, query).map(({ collection, record }) => upcomingItem(snapshot, collection, record))
}

/** An upcoming item as list_upcoming gives it: when, where, how to attend (its resource naming a translation's locale). */
export function upcomingItem(snapshot: Snapshot, collection: UpcomingCollection, r: ContentRecord): UpcomingItem {
  const details: Record<string, string | null> = {}
  for (const { detail } of declaredDetails(snapshot.model)) details[detail.key] = detailOf(r, detail)
  if ('attendance_mode' in details && !snapshot.model.collections[collection]!.fields.attendance_mode)
    // An item whose collection says no attendance mode (a webinar) is where its location is, else online.
    details.attendance_mode = r.location ? 'in_person' : 'online'
  if ('region' in details) details.region = detailOf(r, REGION) ?? regionsOf(r)[0] ?? null
  return {
    collection,
    slug: r.slug,
    type: r.type,
    title: r.title,
    summary: String(r.summary ?? ''),
    url: String(r.url ?? ''),
    starts_at: String(r.starts_at),
    ends_at: str(r.ends_at),
    timezone: str(r.timezone),
    ...details,
    resource_uri: recordUri(snapshot, collection, r),
  }
}

/** How an item is attended where its collection says so (events), else what it is (`webinar`). */
export function kindOf(model: ContentModel, collection: string, mode: string | null): string {
  const def = model.collections[collection]!
  return def.fields.attendance_mode ? (mode ?? def.label) : def.label
}
