/**
 * The change feed's contract: the change log the build writes, the opaque
 * cursor, the query rules and the one renderer the build (first page, a
 * pre-rendered file) and the gateway (`?since=`, `?limit=`) both answer with.
 *
 * A change log is every change to a published item in order: created,
 * updated or deleted (a removed file or a file turned into a draft), each at
 * a position (when it was committed, and its sequence within that second).
 * An answer lists each item once, with its latest change after the cursor.
 *
 * A multilingual site has one log per locale, each numbered on its own: the
 * default locale's is the one a single-language site has (its cursors are
 * bare), another locale's is asked for with `?locale=` only (never by
 * Accept-Language: a client's feed must not switch under its cursor), and its
 * cursors name it (`de_<cursor>`), so one locale's cursor is never read as
 * another's position.
 */
import type { CollectionName } from './model/model.ts'
import { chooseLocale, checkLocaleSyntax, LOCALE_QUERY_PATTERN, type SiteLocales } from './locales.ts'
import { CHANGES_PATH } from './public-paths.ts'
import { single, type ParameterError } from './query-values.ts'
import { queryReader } from './routes/query-reader.ts'
import {
  CHANGES_LIMIT,
  CURSOR_PATTERN,
  DEFAULT_CHANGES_LIMIT,
  MAX_CURSOR_LENGTH,
} from './routes/search-changes-parameters.ts'
import type { ContentRecord } from './records.ts'

export const CHANGE_LOG_FILE = '_build/changes.json'
/** The pre-rendered answer to `GET /api/changes` (first page, default limit); `_` keeps it apart from collections. */
export const CHANGES_FILE = 'api/_changes.json'
export const CHANGE_LOG_FORMAT = 1

/** Longest `meta.warning` (a build's reason for an incomplete history); longer ones are cut. */
export const MAX_WARNING_LENGTH = 1000

export type ChangeType = 'created' | 'updated' | 'deleted'

/** Where the log's history came from: git (complete), a shallow clone (cut off), or none (no deletions). */
export type HistorySource = 'git' | 'shallow' | 'none'

/** A change's place in the log: seconds since the epoch, and its 1-based sequence within that second. */
export interface Position {
  time: number
  seq: number
}

/**
 * One change: position, type, and the item (id, collection, slug); in another locale's log than
 * the default's, the record's locale (that locale, or the default's where the locale falls back).
 */
export type LoggedChange = [
  time: number,
  seq: number,
  change: ChangeType,
  collection: CollectionName,
  slug: string,
  id: string,
  locale?: string,
]

/** `_build/changes.json` (and a locale's, contract/paths.ts localeChangeLogFile): every change in position order. */
export interface ChangeLog {
  format: typeof CHANGE_LOG_FORMAT
  /** The locale of another locale's log than the default's (whose file names none). */
  locale?: string
  history: HistorySource
  /** Why the history is incomplete, for the answer's meta; null when it is complete. */
  warning: string | null
  changes: LoggedChange[]
}

export interface ChangeEntry {
  change: ChangeType
  id: string
  collection: CollectionName
  slug: string
  /** A multilingual site's: the record's locale (the feed's, or the default's where it falls back). */
  locale?: string
  /** The record's `updated_at`; for a deletion, when it was recorded. */
  updated_at: string
  /** When the change was recorded (the commit that made it). */
  changed_at: string
  /** The item's API path; null for a deletion. */
  href: string | null
}

export interface ChangesEnvelope {
  data: ChangeEntry[]
  meta: {
    count: number
    limit: number
    has_more: boolean
    since: string | null
    next_cursor: string
    history: HistorySource
    warning: string | null
  }
  links: { self: string; next: string }
}

export interface ChangesQuery {
  since: Position | undefined
  limit: number
  /** The feed of a locale other than the default (a multilingual site's); undefined: the default's. */
  locale?: string
}

/** Before every change: positions start at sequence 1. */
const START: Position = { time: 0, seq: 0 }

export function comparePositions(a: Position, b: Position): number {
  return a.time - b.time || a.seq - b.seq
}

/**
 * The opaque cursor of a position: base64url of `c1.<time>.<seq>`; in another locale's feed than
 * the default's, that locale's tag and `_` before it (`de_YzEu…`: a tag never holds `_`).
 */
export function encodeCursor(position: Position, locale?: string): string {
  const cursor = Buffer.from(`c1.${position.time}.${position.seq}`).toString('base64url')
  return locale === undefined ? cursor : `${locale}_${cursor}`
}

const CURSOR_TEXT = /^c1\.(0|[1-9][0-9]{0,11})\.(0|[1-9][0-9]{0,8})$/
const LOCALE_TAG = new RegExp(LOCALE_QUERY_PATTERN)
const CURSOR_RE = new RegExp(CURSOR_PATTERN)
/** The declared reader of a feed request: its `limit` (`since` and `locale` are read here). */
const readChanges = queryReader([CHANGES_LIMIT])

/** The position of a default-locale cursor, or undefined when it is not one this API made. */
export function decodeCursor(cursor: string): Position | undefined {
  const read = readCursor(cursor)
  return read && read.locale === undefined ? read.position : undefined
}

/** A cursor's position and the locale whose feed made it (undefined: the default's); undefined when this API made no such cursor. */
export function readCursor(cursor: string): { position: Position; locale: string | undefined } | undefined {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !CURSOR_RE.test(cursor)) return undefined
  const cut = cursor.indexOf('_')
  // Base64url has `_` too, but the text before it is a tag only in a locale's cursor (a bare one starts `YzEu`, "c1.").
  const locale = cut > 0 && LOCALE_TAG.test(cursor.slice(0, cut)) ? cursor.slice(0, cut) : undefined
  const m = CURSOR_TEXT.exec(
    Buffer.from(locale === undefined ? cursor : cursor.slice(cut + 1), 'base64url').toString('latin1'),
  )
  if (!m) return undefined
  const position = { time: Number(m[1]), seq: Number(m[2]) }
  // One text per position: a re-encoded cursor must give the same string.
  return encodeCursor(position, locale) === cursor ? { position, locale } : undefined
}

export type ParsedChangesQuery = { ok: true; query: ChangesQuery } | { ok: false; errors: ParameterError[] }

/**
 * Validate `since`, `limit` and (a multilingual site's `site`) `locale`: given explicitly or
 * not at all, never negotiated; a cursor must be of the feed asked for. Unknown parameters are
 * ignored, and so is a well-formed `locale` on a single-language site.
 */
export function parseChangesQuery(params: URLSearchParams, site?: SiteLocales): ParsedChangesQuery {
  const errors: ParameterError[] = []
  const { limit } = readChanges(params, errors) as { limit: number }
  let feed: string | undefined
  if (site && site.available.length > 1) {
    // Without `locale` the default's feed, whatever Accept-Language says.
    const { locale } = chooseLocale(params, undefined, site, errors)
    feed = locale === site.default ? undefined : locale
  } else checkLocaleSyntax(params, errors)
  const cursor = single(params, 'since', errors)
  const read = cursor === undefined ? undefined : readCursor(cursor)
  if (cursor !== undefined && read === undefined) {
    errors.push({
      parameter: 'since',
      message: `must be a cursor from an earlier answer (meta.next_cursor or links.next); take a new one from GET ${changesHref({ since: undefined, limit: DEFAULT_CHANGES_LIMIT, locale: feed })}`,
    })
  } else if (read && read.locale !== feed && !errors.some((e) => e.parameter === 'locale')) {
    errors.push({ parameter: 'since', message: otherFeed(read.locale, feed, site) })
  }
  return errors.length ? { ok: false, errors } : { ok: true, query: { since: read?.position, limit, locale: feed } }
}

/** Why a cursor of one locale's feed cannot continue another's. */
function otherFeed(cursorLocale: string | undefined, feed: string | undefined, site: SiteLocales | undefined): string {
  const name = (locale: string | undefined) => locale ?? site?.default ?? 'the default locale'
  const first = (locale: string | undefined) => changesHref({ since: undefined, limit: DEFAULT_CHANGES_LIMIT, locale })
  if (cursorLocale !== undefined && !site?.available.includes(cursorLocale))
    return `is a cursor of a ${cursorLocale} change feed, which this site does not publish; take a new one from GET ${first(feed)}`
  return `is a cursor of the ${name(cursorLocale)} change feed (GET ${first(cursorLocale)}), not of the ${name(feed)} one asked for: each locale's feed has its own cursors; continue with ${cursorLocale === undefined ? 'no locale' : `locale=${cursorLocale}`}, or take a new cursor from GET ${first(feed)}`
}

/** Canonical href of a change feed request: since when set, limit when not the default, then the locale. */
export function changesHref(query: ChangesQuery): string {
  const params: string[] = []
  if (query.since) params.push(`since=${encodeCursor(query.since, query.locale)}`)
  if (query.limit !== DEFAULT_CHANGES_LIMIT) params.push(`limit=${query.limit}`)
  if (query.locale !== undefined) params.push(`locale=${query.locale}`)
  return params.length ? `${CHANGES_PATH}?${params.join('&')}` : CHANGES_PATH
}

/** True when the query is answered by the pre-rendered file. */
export function isFirstChangesPage(query: ChangesQuery): boolean {
  return query.since === undefined && query.limit === DEFAULT_CHANGES_LIMIT
}

export function instant(time: number): string {
  return new Date(time * 1000).toISOString().replace('.000Z', 'Z')
}

/**
 * The answer to a change feed query. Without a cursor: every published item
 * once (all `created`), in the order they last changed. With one: each item
 * that changed after it, once, with its latest change: `deleted` if that was
 * a deletion, else `created` when the item was not published at the cursor,
 * `updated` when it was. `next_cursor` continues after the last entry, or
 * after the whole log when this is the last page. Items are told apart by
 * id: in a locale's feed a translation's tombstone and the default record
 * standing in for it may share a slug.
 *
 * `defaultLocale`: a multilingual site's default locale (its entries then name
 * their record's locale); undefined for a single-language site.
 */
export function changesEnvelope(
  log: ChangeLog,
  recordOf: (collection: CollectionName, slug: string) => ContentRecord | undefined,
  query: ChangesQuery,
  defaultLocale?: string,
): ChangesEnvelope {
  const { changes } = log
  const start = query.since ?? START
  const first = firstAfter(changes, start)
  // Which items were published at the cursor: the state their changes up to it left.
  const publishedAtStart = new Set<string>()
  if (query.since) {
    for (let i = 0; i < first; i++) {
      const [, , change, , , id] = changes[i]!
      if (change === 'deleted') publishedAtStart.delete(id)
      else publishedAtStart.add(id)
    }
  }
  const latest = new Map<string, LoggedChange>()
  for (let i = first; i < changes.length; i++) {
    const logged = changes[i]!
    // Re-inserted, so the map stays in the order of each item's latest change.
    latest.delete(logged[5])
    latest.set(logged[5], logged)
  }
  const feedLocale = query.locale ?? defaultLocale
  const entries: { position: Position; entry: ChangeEntry }[] = []
  for (const [id, [time, seq, change, collection, slug, , locale]] of latest) {
    if (change === 'deleted' && !query.since) continue
    const changedAt = instant(time)
    const record = change === 'deleted' ? undefined : recordOf(collection, slug)
    entries.push({
      position: { time, seq },
      entry: {
        change: change === 'deleted' ? 'deleted' : publishedAtStart.has(id) ? 'updated' : 'created',
        id,
        collection,
        slug,
        ...(feedLocale !== undefined && { locale: locale ?? feedLocale }),
        updated_at: record?.updated_at ?? changedAt,
        changed_at: changedAt,
        href:
          change === 'deleted'
            ? null
            : `/api/${collection}/${slug}${query.locale === undefined ? '' : `?locale=${query.locale}`}`,
      },
    })
  }
  const page = entries.slice(0, query.limit)
  const hasMore = entries.length > query.limit
  const end = changes.length ? { time: changes[changes.length - 1]![0], seq: changes[changes.length - 1]![1] } : START
  const next = hasMore ? page[page.length - 1]!.position : comparePositions(end, start) > 0 ? end : start
  const nextCursor = encodeCursor(next, query.locale)
  return {
    data: page.map((p) => p.entry),
    meta: {
      count: page.length,
      limit: query.limit,
      has_more: hasMore,
      since: query.since ? encodeCursor(query.since, query.locale) : null,
      next_cursor: nextCursor,
      history: log.history,
      warning: log.warning === null ? null : log.warning.slice(0, MAX_WARNING_LENGTH),
    },
    links: {
      self: changesHref(query),
      next: changesHref({ since: next, limit: query.limit, locale: query.locale }),
    },
  }
}

export function renderChanges(...args: Parameters<typeof changesEnvelope>): string {
  return JSON.stringify(changesEnvelope(...args))
}

/** Index of the first change after `position` (binary search: the log is in position order). */
function firstAfter(changes: readonly LoggedChange[], position: Position): number {
  let lo = 0
  let hi = changes.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const [time, seq] = changes[mid]!
    if (comparePositions({ time, seq }, position) > 0) hi = mid
    else lo = mid + 1
  }
  return lo
}
