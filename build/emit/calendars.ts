/**
 * iCalendar files of the dated collections (site.yaml's `dated: true`):
 * `/calendar/{collection}.ics` with one VEVENT per published item, and
 * `/calendar/{collection}/{slug}.ics` for one. A dated collection's items
 * have `starts_at` and `timezone`, and end at `ends_at` or after
 * `duration_minutes` where they say so; a `location`, `speakers`,
 * `event_status` and the links, where a collection declares those names
 * (contract/model/dated-details.ts), fill the rest. UIDs are the record ids at the site's host; DTSTAMP and
 * LAST-MODIFIED are the item's updated_at, so the same content gives the same
 * bytes; times are local to the item's zone with its VTIMEZONE.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import { buildFile } from '../../contract/etag.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import { calendarPath } from '../../contract/public-paths.ts'
import type { FullRecord } from '../../contract/records.ts'
import type { SiteConfig } from '../core/site.ts'
import { dateTimeLine, escapeText, serialize, utcStamp, vtimezone } from './icalendar.ts'
import { RecordDiff } from './record-diff.ts'
import type { EmittedFiles, Emitter } from './types.ts'

/** `event_status` → STATUS: a postponed event has no firm date. */
const STATUS: Record<string, string> = {
  scheduled: 'CONFIRMED',
  rescheduled: 'CONFIRMED',
  postponed: 'TENTATIVE',
  cancelled: 'CANCELLED',
}

interface Location {
  venue: string
  city: string
  country: string
}
interface Person {
  name: string
  title?: string
  company?: string
}

/**
 * Per collection, and incremental like the API files: an item's own calendar
 * is made again only when its record changed, and the collection's only when
 * one of its records did (an edit to one event at 10,000 items renders two files);
 * only the files that changed are reported.
 */
export function createCalendarEmitter(): Emitter {
  const single = new WeakMap<FullRecord, BuildFile>()
  const whole = new Map<CollectionName, { records: readonly FullRecord[]; file: BuildFile; diff: RecordDiff }>()
  /** A multilingual site's other locales, per collection and locale: the calendar's records and file, and the items' files. */
  const localised = new Map<
    string,
    { records: readonly FullRecord[]; file: BuildFile; items: Map<string, BuildFile> }
  >()
  return {
    name: 'calendars',
    input: 'collection',
    emit(content, collection) {
      const { site } = content
      if (!site.collections[collection]?.dated) return { files: {}, removed: [] }
      const records = content.collections[collection]!
      const previous = whole.get(collection)
      const unchanged =
        previous && previous.records.length === records.length && previous.records.every((r, i) => r === records[i])
      const file = unchanged
        ? previous.file
        : buildFile(calendar(site, `${site.name}: ${site.collections[collection]!.title}`, records))
      const diff = previous?.diff ?? new RecordDiff()
      whole.set(collection, { records, file, diff })
      const files: EmittedFiles = file === previous?.file ? {} : { [calendarPath(collection).slice(1)]: file }
      const { added, gone } = diff.update(records)
      for (const record of added) {
        let own = single.get(record)
        if (!own) single.set(record, (own = buildFile(calendar(site, `${site.name}: ${record.title}`, [record]))))
        files[calendarPath(collection, record.slug).slice(1)] = own
      }
      const removed = gone.map((r) => calendarPath(collection, r.slug).slice(1)).filter((path) => !(path in files))
      // Each other locale's calendar of its list (`/calendar/de/events.ics`), and its translations' own.
      for (const [locale, view] of Object.entries(content.locales ?? {})) {
        const key = `${collection}@${locale}`
        const own = view.collections[collection]!
        const before = localised.get(key)
        const same = before && before.records.length === own.length && before.records.every((r, i) => r === own[i])
        const file = same
          ? before.file
          : buildFile(calendar(site, `${site.name}: ${site.collections[collection]!.title}`, own))
        if (file !== before?.file) files[calendarPath(collection, undefined, locale).slice(1)] = file
        const items = new Map<string, BuildFile>()
        for (const record of own) {
          if (record.locale !== locale) continue
          let item = single.get(record)
          if (!item) single.set(record, (item = buildFile(calendar(site, `${site.name}: ${record.title}`, [record]))))
          const path = calendarPath(collection, record.slug, locale).slice(1)
          items.set(path, item)
          if (before?.items.get(path) !== item) files[path] = item
        }
        for (const path of before?.items.keys() ?? []) if (!items.has(path)) removed.push(path)
        localised.set(key, { records: own, file, items })
      }
      return { files, removed }
    },
  }
}

function calendar(site: SiteConfig, name: string, records: readonly FullRecord[]): string {
  const zones = [...new Set(records.map((r) => r.timezone as string | null))]
    .filter((z): z is string => !!z && vtimezone(z) !== undefined)
    .sort()
  const head = serialize([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeText(site.name)}//Content API//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `NAME:${escapeText(name)}`,
    `X-WR-CALNAME:${escapeText(name)}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
    ...zones.flatMap((zone) => vtimezone(zone)!),
  ])
  return `${head}${records.map((r) => vevent(site, r)).join('')}${serialize(['END:VCALENDAR'])}`
}

/** VEVENT text by record: the watch mode keeps unchanged records, so an edit re-renders one event. */
const rendered = new WeakMap<FullRecord, string>()

function vevent(site: SiteConfig, record: FullRecord): string {
  let text = rendered.get(record)
  if (text === undefined) rendered.set(record, (text = serialize(veventLines(site, record))))
  return text
}

function veventLines(site: SiteConfig, record: FullRecord): string[] {
  const zone = (record.timezone as string | null) ?? undefined
  const start = String(record.starts_at)
  const end =
    typeof record.ends_at === 'string'
      ? record.ends_at
      : new Date(Date.parse(start) + (Number(record.duration_minutes) || 0) * 60_000).toISOString()
  const location = locationOf(record)
  return [
    'BEGIN:VEVENT',
    `UID:${record.id}@${new URL(site.url).hostname}`,
    `DTSTAMP:${utcStamp(record.updated_at)}`,
    `CREATED:${utcStamp(record.published_at)}`,
    `LAST-MODIFIED:${utcStamp(record.updated_at)}`,
    dateTimeLine('DTSTART', start, zone),
    dateTimeLine('DTEND', end, zone),
    `SUMMARY:${escapeText(record.title)}`,
    `DESCRIPTION:${escapeText(descriptionOf(record))}`,
    ...(location ? [`LOCATION:${escapeText(location)}`] : []),
    `URL:${String(record.url)}`,
    `STATUS:${STATUS[String(record.event_status ?? 'scheduled')] ?? 'CONFIRMED'}`,
    ...(record.tags.length ? [`CATEGORIES:${record.tags.map(escapeText).join(',')}`] : []),
    'END:VEVENT',
  ]
}

/** Where: the venue of an in-person or hybrid event, else online (with the link when there is one). */
function locationOf(record: FullRecord): string | undefined {
  const place = record.location as Location | null | undefined
  if (place) return [place.venue, place.city, place.country].join(', ')
  const online = record.online_url ?? record.registration_url
  return typeof online === 'string' ? `Online: ${online}` : 'Online'
}

function descriptionOf(record: FullRecord): string {
  const lines = [String(record.summary ?? '')]
  const speakers = record.speakers as Person[] | undefined
  if (speakers?.length)
    lines.push(`Speakers: ${speakers.map((s) => [s.name, s.title, s.company].filter(Boolean).join(', ')).join('; ')}`)
  if (record.event_status && record.event_status !== 'scheduled') lines.push(`Status: ${String(record.event_status)}`)
  const links: [string, unknown][] = [
    ['Register', record.registration_url],
    ['Join online', record.online_url],
    ['Recording', record.recording_url],
    ['Details', record.url],
  ]
  for (const [label, href] of links) if (typeof href === 'string') lines.push(`${label}: ${href}`)
  return lines.filter(Boolean).join('\n')
}
