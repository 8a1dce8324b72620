/**
 * When a translation is published: inside both its own window and its
 * item's (pipeline/schedule.ts `translationPublication`), never while either
 * file is a draft. A German file dated before the English launch waits for
 * it; a webinar whose English `expires_at` passed comes down in every locale
 * at once. The compiler reads every file's publication from here (what is
 * public, the next release, the preview, `npm run check`'s list), and a
 * translation's record reads as published at the moment it becomes public,
 * as a scheduled item's does.
 */
import type { FullRecord } from '../../contract/records.ts'
import { ContentError } from '../core/errors.ts'
import type { SiteConfig } from '../core/site.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import {
  isoSeconds,
  isEmptyWindow,
  isLive,
  publicationState,
  translationPublication,
  type Publication,
} from '../pipeline/schedule.ts'

/** A translation's publication, and its item's default-locale file (none for an item in one locale only). */
export interface TranslationSchedule extends Publication {
  item: CompiledFile | undefined
}

/** Each translation's publication, by file; a default-locale file is published as it says itself. */
export type Schedules = ReadonlyMap<CompiledFile, TranslationSchedule>

export function translationSchedules(site: SiteConfig, files: Iterable<CompiledFile>): Schedules {
  const all = [...files]
  const translations = all.filter((file) => file.locale !== site.language)
  const schedules = new Map<CompiledFile, TranslationSchedule>()
  // Most sites have one language: no map of every item to build on each edit.
  if (!translations.length) return schedules
  const items = new Map<string, CompiledFile>()
  for (const file of all) if (file.locale === site.language) items.set(`${file.collection}/${file.key}`, file)
  for (const file of translations) {
    const item = items.get(`${file.collection}/${file.key}`)
    schedules.set(file, { ...translationPublication(file, item), item })
  }
  return schedules
}

/** How `file` is published: its translation release, else its own draft flag and window. */
export function publicationOf(file: CompiledFile, schedules: Schedules): Publication {
  return schedules.get(file) ?? file
}

/** Whether `file` is published at `now` (seconds). */
export function isPublishedAt(file: CompiledFile, schedules: Schedules, now: number): boolean {
  const { draft, window } = publicationOf(file, schedules)
  return !draft && isLive(window, now)
}

/** Where a file stands at `now`; `item`: the default-locale file whose time (not the translation's own) it waits for or left with. */
export type FileSchedule =
  | { state: 'live' }
  | { state: 'scheduled' | 'expired'; at: number; item?: CompiledFile | undefined }

export function fileSchedule(file: CompiledFile, schedules: Schedules, now: number): FileSchedule {
  const release = schedules.get(file)
  const state = publicationState(release?.window ?? file.window, now)
  if (state.state === 'live' || !release?.item) return state
  const own = file.window
  const bound = state.state === 'scheduled' ? own && state.at > own.from : own && state.at !== own.until
  return bound ? { ...state, item: release.item } : state
}

/** A translation whose window and its item's never overlap: it would never be published, a mistake of its dates. */
export function neverPublished(schedules: Schedules): ContentError[] {
  const errors: ContentError[] = []
  for (const [file, release] of schedules) {
    const { item, window } = release
    if (release.draft || !item?.window || !file.window || !window || !isEmptyWindow(window)) continue
    const early = file.window.until !== undefined && file.window.until <= item.window.from
    const field = early ? 'expires_at' : 'published_at'
    const at = file.datesAt?.[field] ?? { line: 1, column: 1 }
    const detail = early
      ? `is ${isoSeconds(file.window.until!)}, before its item (${item.source.path}) is published at ${isoSeconds(item.window.from)}: this translation would never be published (a translation is public only while its item is)`
      : `is ${isoSeconds(file.window.from)}, when its item (${item.source.path}) has expired (${isoSeconds(item.window.until!)}): this translation would never be published (a translation is public only while its item is)`
    errors.push(new ContentError('DATE_ORDER', file.source.path, at.line, at.column, field, detail))
  }
  return errors
}

const asPublishedRecords = new WeakMap<FullRecord, { key: string; record: FullRecord }>()

/**
 * A translation's record as published: `published_at` is its item's when the
 * item is released later (the moment the translation becomes public, as a
 * scheduled item's record says its release), `expires_at` its item's when
 * that comes first, and `updated_at` never before `published_at`. The same
 * object while nothing changes, so emitters render it once.
 */
export function asPublished(file: CompiledFile, record: FullRecord, schedules: Schedules): FullRecord {
  const release = schedules.get(file)
  const item = release?.item?.record
  const own = file.window
  const itemWindow = release?.item?.window
  if (!item || !own || !itemWindow) return record
  const later = itemWindow.from > own.from
  const sooner = itemWindow.until !== undefined && (own.until === undefined || itemWindow.until < own.until)
  if (!later && !sooner) return record
  const published_at = later ? item.published_at : record.published_at
  const expires_at = sooner ? item.expires_at : record.expires_at
  const updated_at = Date.parse(record.updated_at) < Date.parse(published_at) ? published_at : record.updated_at
  const key = `${published_at} ${updated_at} ${expires_at}`
  const previous = asPublishedRecords.get(record)
  if (previous?.key === key) return previous.record
  const next = { ...record, published_at, updated_at, expires_at }
  asPublishedRecords.set(record, { key, record: next })
  return next
}
