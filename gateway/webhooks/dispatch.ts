/**
 * From a live build to queued messages. Each change feed (the default
 * locale's, and each other locale's of a multilingual site) has a cursor
 * (cursor.ts): the position up to which every change has been fanned out.
 * When a build goes live, the changes after it become events (events.ts),
 * each queued once for every subscription that wants its type and locale
 * (paused ones included: they keep what they miss), and the cursor moves to
 * the feed's last change. So:
 *
 * - a build with no new change queues nothing, and a redeploy of the same
 *   build (or an older one, a rollback) finds the cursor already there;
 * - several gateway processes or function instances that see the same build
 *   agree through a lease: one fans out, the others find it held or the
 *   cursor moved. The holder renews it as it goes and queues nothing more
 *   once it is lost (a write already under way when it stalled may still
 *   land: at least once), so no two fan out at once;
 * - a large fan-out is saved as it goes and stops at the pass's deadline
 *   (fan-out.ts): the next pass resumes after the last batch saved and
 *   queues nothing that was queued and sent already;
 * - the cursor only moves forward (cursor.ts): a dispatcher that stalled
 *   past its lease and writes late cannot take it back;
 * - the first build ever seen only sets the cursor (of each feed: a locale
 *   added later starts then too): content that was there before webhooks is
 *   not news.
 */
import { comparePositions, encodeCursor, CHANGE_LOG_FILE, type ChangeLog } from '../../contract/changes.ts'
import { localeChangeLogFile } from '../../contract/paths.ts'
import { NOTIFY_FILE, type NotifyInfo } from '../../contract/webhook-events.ts'
import type { Snapshot } from '../artifacts.ts'
import type { StateStore } from '../auth/store/state-store.ts'
import { localesOf, recordsBySlug } from '../content/locales.ts'
import type { Logger } from '../log.ts'
import { cursorRecord, inProgress, openCursor } from './cursor.ts'
import { endOf, eventsAfter, type EventFeed } from './events.ts'
import { fanOut } from './fan-out.ts'
import { acquire } from './lease.ts'
import { openSubscriptions, wants, wantsLocale } from './subscriptions.ts'

export interface DispatchContext {
  store: StateStore
  now: () => number
  log: Logger
  /** The gateway's public origin (PUBLIC_URL, or Netlify's URL), for the events' api_url. */
  publicUrl: string | undefined
  /** Start no batch after this (a function's time limit), on the `now` clock; the next pass resumes. */
  deadline?: number | undefined
}

export type DispatchResult =
  | { kind: 'started'; cursor: string }
  | { kind: 'nothing-new'; cursor: string }
  | { kind: 'busy' }
  | { kind: 'no-change-log' }
  | { kind: 'queued'; cursor: string; events: number; deliveries: number }
  /** Stopped midway (the deadline, or the lease was lost); `cursor` is where the next pass resumes. */
  | { kind: 'partial'; cursor: string; events: number; deliveries: number; left: number; reason: 'deadline' | 'lease' }

/** A JSON file of the build, or undefined when it has none. */
export async function readBuildJson<T>(snapshot: Snapshot, path: string): Promise<T | undefined> {
  const found = snapshot.file(path)
  const file = found && (await Promise.resolve(found).catch(() => undefined))
  return file ? (JSON.parse(file.body.toString('utf8')) as T) : undefined
}

export async function dispatchBuild(snapshot: Snapshot, ctx: DispatchContext): Promise<DispatchResult> {
  const locales = snapshot.manifest.locales
  const notify = await readBuildJson<NotifyInfo>(snapshot, NOTIFY_FILE)
  const defaultLocale = locales?.default ?? notify?.language ?? localesOf(snapshot).default
  // The default locale's feed first: its result is the pass's (another locale's is logged).
  const feeds: EventFeed[] = [
    { locale: defaultLocale, defaultLocale: locales?.default },
    ...(locales?.available ?? [])
      .filter((l) => l !== locales!.default)
      .map((locale) => ({ locale, defaultLocale: locales!.default })),
  ]
  let result: DispatchResult | undefined
  for (const feed of feeds) {
    const outcome = await dispatchFeed(snapshot, ctx, feed, notify)
    result ??= outcome
  }
  return result!
}

/** Fan out one feed's changes after its cursor (see the module comment). */
async function dispatchFeed(
  snapshot: Snapshot,
  ctx: DispatchContext,
  feed: EventFeed,
  notify: NotifyInfo | undefined,
): Promise<DispatchResult> {
  const other = feed.defaultLocale !== undefined && feed.locale !== feed.defaultLocale ? feed.locale : undefined
  const log = await readBuildJson<ChangeLog>(
    snapshot,
    other === undefined ? CHANGE_LOG_FILE : localeChangeLogFile(other),
  )
  if (!log || !Array.isArray(log.changes)) return { kind: 'no-change-log' }
  const end = endOf(log) ?? { time: 0, seq: 0 }
  const cursor = openCursor(ctx.store, other)
  const state = await cursor.read()
  if (!state) {
    await cursor.advance(cursorRecord(end, end, snapshot.id, ctx.now(), other))
    ctx.log('info', 'webhooks: changes after this build will be sent', {
      cursor: encodeCursor(end, other),
      build_id: snapshot.id,
      ...(other !== undefined && { locale: other }),
    })
    return { kind: 'started', cursor: encodeCursor(end, other) }
  }
  if (comparePositions(end, state.position) <= 0) return { kind: 'nothing-new', cursor: state.cursor }
  // What needs no lease is read before it is taken: the lease's time is the fan-out's.
  const subscriptions = (await openSubscriptions(ctx.store).list()).filter((s) => wantsLocale(s, feed))
  const lease = await acquire(ctx.store, 'dispatch', ctx.now)
  if (!lease) return { kind: 'busy' }
  try {
    // Another holder may have moved it since we looked.
    const current = (await cursor.read()) ?? state
    if (comparePositions(end, current.position) <= 0) return { kind: 'nothing-new', cursor: current.cursor }
    // A fan-out stopped midway resumes against the start it had, after what it saved.
    const from = inProgress(current) ? current.from : current.position
    const events = eventsAfter(
      log,
      from,
      (c, slug) => recordsBySlug(snapshot, c, other).get(slug),
      { publicUrl: ctx.publicUrl, notify },
      feed,
    ).filter((e) => comparePositions(e.position, current.position) > 0)
    const targets = events.map(({ event }) => subscriptions.filter((s) => wants(s, event.type)))
    return await fanOut({ snapshot, events, targets, from, after: current.position, end, locale: other, lease }, ctx)
  } finally {
    await lease.release()
  }
}
