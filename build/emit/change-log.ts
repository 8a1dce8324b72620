/**
 * The change feed's logs, one per locale of the site: the committed history,
 * then what the working tree changed since the last commit (uncommitted
 * edits, in `npm run dev` or a build before a commit), each change placed at
 * a position. The same content and git history always give the same logs.
 *
 * Positions: a commit's changes are at its time (never before the commit
 * before it), uncommitted ones after every change logged before them (at the
 * last commit's time, or a later release's), each numbered within its
 * second, in each log on its own. A release (an item's `published_at` reached
 * after it was committed) and an expiry (its `expires_at` reached) are at
 * their own time, up to the build's clock: the build whose clock passes that
 * time is the one that logs it, after every position an earlier build handed
 * out, so cursors stay valid and webhooks go out at the release. Without any
 * commit to go by (no git, or content/ never committed) an item's position is
 * its updated_at, and nothing expired is logged.
 */
import { CHANGE_LOG_FORMAT, type ChangeLog, type LoggedChange } from '../../contract/changes.ts'
import type { BuiltContent } from './types.ts'
import { recordId } from '../pipeline/derive.ts'
import { appendChanges, Replay, type LocaleChanges } from '../history/replay.ts'
import type { ReplaySite } from '../history/replay-site.ts'
import type { ContentHistory, FileState, HistoryChange } from '../history/types.ts'

/** The default locale's log and, on a multilingual site, each other locale's (by tag). */
export interface ChangeLogs {
  log: ChangeLog
  locales: Record<string, ChangeLog>
}

/** The logs of a build, made once for the emitters that read them (the change feed, the redirects). */
const made = new WeakMap<BuiltContent, WeakMap<ContentHistory['committed'], ChangeLogs>>()

/** deriveChangeLogs, once per content and committed history. */
export function changeLogsOf(history: ContentHistory, content: BuiltContent): ChangeLogs {
  let byHistory = made.get(content)
  if (!byHistory) made.set(content, (byHistory = new WeakMap()))
  let logs = byHistory.get(history.committed)
  if (!logs) byHistory.set(history.committed, (logs = deriveChangeLogs(history, content)))
  return logs
}

export function deriveChangeLogs(history: ContentHistory, content: BuiltContent): ChangeLogs {
  const { committed, working } = history
  const site: ReplaySite = {
    language: content.site.language,
    locales: content.site.locales,
    fallback: content.site.fallback,
  }
  const replay = new Replay(content.asOf, site)
  const changes: LocaleChanges = new Map()
  for (const step of committed.steps) appendChanges(changes, replay.apply(step.files, step.time))
  const files = replay.files
  const next = new Map<string, FileState | undefined>()
  for (const path of [...new Set([...files.keys(), ...working.keys()])].sort()) {
    const before = files.get(path)
    const after = working.get(path)
    if (!sameState(before, after)) next.set(path, after)
  }
  if (committed.lastTime === undefined) {
    for (const [locale, found] of replay.applyAtClock(next))
      changes.set(locale, placeByUpdatedAt(found, content, locale))
  } else {
    // The committed files' releases and expiries up to the clock, then the working tree after all of them
    // (so an edit of an item released since the last commit is an update), then its own releases.
    appendChanges(changes, replay.until(content.asOf))
    const lastLogged = Math.max(0, ...[...changes.values()].map((list) => list.at(-1)?.time ?? 0))
    appendChanges(changes, replay.apply(next, Math.max(committed.lastTime, lastLogged)))
    appendChanges(changes, replay.until(content.asOf))
  }
  const logOf = (locale: string): ChangeLog => ({
    format: CHANGE_LOG_FORMAT,
    ...(locale !== site.language && { locale }),
    history: committed.source,
    warning: committed.warning ?? null,
    changes: numbered(changes.get(locale) ?? [], locale === site.language ? undefined : site.language),
  })
  return {
    log: logOf(site.language),
    locales: Object.fromEntries(site.locales.slice(1).map((locale) => [locale, logOf(locale)])),
  }
}

function sameState(a: FileState | undefined, b: FileState | undefined): boolean {
  return (
    a === b ||
    (a !== undefined &&
      b !== undefined &&
      a.blob === b.blob &&
      a.published === b.published &&
      a.slug === b.slug &&
      a.collection === b.collection)
  )
}

/** With no commit to date them, changes (all creations) take their record's updated_at, oldest first. */
function placeByUpdatedAt(changes: HistoryChange[], content: BuiltContent, locale: string): HistoryChange[] {
  const updatedAt = new Map<string, number>()
  const summaries = locale === content.site.language ? content.summaries : content.locales?.[locale]?.summaries
  for (const [collection, records] of Object.entries(summaries ?? {}))
    for (const r of records)
      updatedAt.set(
        `${collection}/${r.slug}\0${r.locale ?? content.site.language}`,
        Math.floor(Date.parse(r.updated_at) / 1000),
      )
  return changes
    .map((c) => ({ ...c, time: Math.max(0, updatedAt.get(`${c.collection}/${c.slug}\0${c.locale}`) ?? 0) }))
    .sort(
      (a, b) =>
        a.time - b.time ||
        (a.collection < b.collection
          ? -1
          : a.collection > b.collection
            ? 1
            : a.slug < b.slug
              ? -1
              : a.slug > b.slug
                ? 1
                : 0),
    )
}

/**
 * Sequence numbers within each second (the changes are in time order). In another locale's log
 * (`defaultLocale` given), each change names its record's locale, and a translation's id is its own.
 */
function numbered(changes: readonly HistoryChange[], defaultLocale: string | undefined): LoggedChange[] {
  let seq = 0
  let previous = -1
  return changes.map(({ time, change, collection, slug, locale }) => {
    seq = time === previous ? seq + 1 : 1
    previous = time
    if (defaultLocale === undefined) return [time, seq, change, collection, slug, recordId(collection, slug)]
    const id = recordId(collection, locale === defaultLocale ? slug : `${locale}/${slug}`)
    return [time, seq, change, collection, slug, id, locale]
  })
}
