/**
 * Publishing on time: an item is public from its release (`published_at`)
 * until its expiry (`expires_at`, optional), as of the build's clock. An item
 * released later than the clock is *scheduled*, one whose expiry has passed
 * is *expired*: both are validated like any other file and left out of every
 * artifact, as drafts are. Instants are whole seconds since the epoch (a
 * release at 09:00:00.5 happens at 09:00:01), the same in the content, the
 * change feed and the manifest.
 *
 * @example isLive(publicationWindow({ published_at: '2027-03-04T09:00:00+01:00' }), clockSeconds(Date.now()))
 */
import { readSettings } from '../../contract/settings.ts'

/** When an item is public: from `from` (inclusive) until `until` (exclusive; undefined: for good). */
export interface PublicationWindow {
  from: number
  until: number | undefined
}

/** The instant of a date (`2026-03-14`: its midnight UTC) or date-time, in whole seconds (rounded up). */
export function instantSeconds(value: string): number {
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
  return Math.ceil(ms / 1000)
}

/** A clock reading (milliseconds) as the whole second it is in. */
export function clockSeconds(ms: number): number {
  return Math.floor(ms / 1000)
}

/** The window of validated frontmatter; undefined when its dates do not parse (the file has errors then). */
export function publicationWindow(data: {
  published_at?: unknown
  expires_at?: unknown
}): PublicationWindow | undefined {
  if (typeof data.published_at !== 'string') return undefined
  const from = instantSeconds(data.published_at)
  const until = typeof data.expires_at === 'string' ? instantSeconds(data.expires_at) : undefined
  if (Number.isNaN(from) || (until !== undefined && Number.isNaN(until))) return undefined
  return { from, until }
}

/** Whether a window is never open: it ends when or before it begins (a translation bound to an item it misses). */
export function isEmptyWindow(window: PublicationWindow): boolean {
  return window.until !== undefined && window.until <= window.from
}

/** Whether an item with this window is public at `now` (seconds); one without a window is. */
export function isLive(window: PublicationWindow | undefined, now: number): boolean {
  return window === undefined || (window.from <= now && (window.until === undefined || now < window.until))
}

/** Whether an item is published at all (not a draft), and when: what a translation's own publication is bound to. */
export interface Publication {
  draft: boolean
  window: PublicationWindow | undefined
}

/**
 * A translation as it is published: only while both it and its item (the
 * default locale's file of the same key) are, i.e. from the later release to
 * the earlier expiry, and not at all while either is a draft. `item`
 * undefined: an item in one locale only, published on its own. The window is
 * empty (`until <= from`) when the two never overlap; the compiler refuses
 * that (build/compiler/translation-schedule.ts). The change feed, feeds and
 * every artifact of a locale follow this window, not the translation's own.
 *
 * @example translationPublication({ draft: false, window: { from: 100, until: undefined } }, { draft: false, window: { from: 200, until: 900 } }) // { draft: false, window: { from: 200, until: 900 } }
 */
export function translationPublication(own: Publication, item: Publication | undefined): Publication {
  if (!item) return own
  const draft = own.draft || item.draft
  // A window that did not parse belongs to a file with errors: nothing is published then.
  if (!own.window || !item.window) return { draft, window: own.window }
  const untils = [own.window.until, item.window.until].filter((u) => u !== undefined)
  return {
    draft,
    window: {
      from: Math.max(own.window.from, item.window.from),
      until: untils.length ? Math.min(...untils) : undefined,
    },
  }
}

/** Where an item stands at `now`: public, or scheduled (released at `at`), or expired (since `at`). */
export type PublicationState = { state: 'live' } | { state: 'scheduled'; at: number } | { state: 'expired'; at: number }

export function publicationState(window: PublicationWindow | undefined, now: number): PublicationState {
  if (!window || isLive(window, now)) return { state: 'live' }
  return window.from > now ? { state: 'scheduled', at: window.from } : { state: 'expired', at: window.until! }
}

/**
 * The build's place on the timeline of its items (drafts left out): the
 * latest release or expiry at or before `now`, and the first after it. The
 * content is the same for every clock from one to the other, so a build is
 * right for that span and no longer.
 */
export interface Timeline {
  last: number | undefined
  next: number | undefined
}

/** An instant in seconds as the API writes instants: `2027-03-04T08:00:00Z`. */
export function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')
}

/**
 * The build's clock: BUILD_TIME when set (a build as of that instant, the
 * same bytes whenever it runs), else the time now. Throws SettingsError for a
 * BUILD_TIME that is not an RFC 3339 instant.
 */
export function settingsClock(env: Record<string, string | undefined> = process.env): () => number {
  const fixed = readSettings({ BUILD_TIME: env.BUILD_TIME }, 'build').BUILD_TIME
  return fixed === undefined ? Date.now : () => fixed
}

/**
 * Why an item with window `from` may not point to one with window `to` as of
 * `now`: the target must be public for as long as the item is from now on,
 * or a release or an expiry would break a later build (or publish a link to
 * an item that is not public). Undefined when it may.
 */
export function referenceTiming(
  from: PublicationWindow | undefined,
  to: PublicationWindow | undefined,
  now: number,
): string | undefined {
  if (!from || !to) return undefined
  const start = Math.max(from.from, now)
  // An item that is expired stays out of every artifact: what it points to no longer matters.
  if (from.until !== undefined && from.until <= start) return undefined
  if (to.until !== undefined && to.until <= now)
    return `expired at ${isoSeconds(to.until)}: a published item may only point to published items`
  if (to.from > start) {
    const own = from.from > now ? `after this item (${isoSeconds(from.from)})` : 'while this item is published now'
    return `is not published until ${isoSeconds(to.from)}, ${own}: publish it no later than this one`
  }
  if (to.until !== undefined && (from.until === undefined || to.until < from.until)) {
    const own = from.until === undefined ? 'which has no expires_at' : `which expires at ${isoSeconds(from.until)}`
    return `expires at ${isoSeconds(to.until)}, before this item (${own}): an item may only point to items that stay published as long as it does`
  }
  return undefined
}
