/**
 * From a live build to queued messages. The state store holds, per change
 * feed, the position up to which every change has been fanned out:
 * `webhooks/cursor` for the default locale's feed, `webhooks/locale-cursor/<locale>`
 * for each other locale's of a multilingual site. When a build goes live, the
 * changes after it become events (events.ts), each queued once for every
 * subscription that wants its type and locale (paused ones included: they keep
 * what they miss), and the cursor moves to the feed's last change. So:
 *
 * - a build with no new change queues nothing, and a redeploy of the same
 *   build (or an older one, a rollback) finds the cursor already there;
 * - several gateway processes or function instances that see the same build
 *   agree through a lease: one fans out, the others find the cursor moved;
 *   one that dies midway leaves the cursor behind, and the next to look fans
 *   out again, which queues nothing twice (queue records are written once);
 * - the first build ever seen only sets the cursor (of each feed: a locale
 *   added later starts then too): content that was there before webhooks is
 *   not news.
 */
import {
  comparePositions,
  encodeCursor,
  CHANGE_LOG_FILE,
  type ChangeLog,
  type Position,
} from '../../contract/changes.ts'
import { localeChangeLogFile } from '../../contract/paths.ts'
import { NOTIFY_FILE, type NotifyInfo } from '../../contract/webhook-events.ts'
import type { Snapshot } from '../artifacts.ts'
import type { StateStore } from '../auth/store/state-store.ts'
import { localesOf, recordsBySlug } from '../content/locales.ts'
import type { Logger } from '../log.ts'
import { endOf, eventsAfter, type EventFeed } from './events.ts'
import { acquire } from './lease.ts'
import { openQueue } from './queue.ts'
import { openSubscriptions, wants, wantsLocale } from './subscriptions.ts'

const CURSOR_KEY = 'webhooks/cursor'
const LOCALE_CURSOR_PREFIX = 'webhooks/locale-cursor/'

interface DispatchState {
  position: Position
  cursor: string
  build_id: string
  at: string
}

export interface DispatchContext {
  store: StateStore
  now: () => number
  log: Logger
  /** The gateway's public origin (PUBLIC_URL, or Netlify's URL), for the events' api_url. */
  publicUrl: string | undefined
}

export type DispatchResult =
  | { kind: 'started'; cursor: string }
  | { kind: 'nothing-new'; cursor: string }
  | { kind: 'busy' }
  | { kind: 'no-change-log' }
  | { kind: 'queued'; cursor: string; events: number; deliveries: number }

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
  const cursorKey = other === undefined ? CURSOR_KEY : `${LOCALE_CURSOR_PREFIX}${other}`
  const log = await readBuildJson<ChangeLog>(
    snapshot,
    other === undefined ? CHANGE_LOG_FILE : localeChangeLogFile(other),
  )
  if (!log || !Array.isArray(log.changes)) return { kind: 'no-change-log' }
  const end = endOf(log) ?? { time: 0, seq: 0 }
  const cursor = encodeCursor(end, other)
  const state = await ctx.store.get<DispatchState>(cursorKey)
  const record = (): DispatchState => ({
    position: end,
    cursor,
    build_id: snapshot.id,
    at: new Date(ctx.now()).toISOString(),
  })
  if (!state) {
    if (await ctx.store.create(cursorKey, record()))
      ctx.log('info', 'webhooks: changes after this build will be sent', {
        cursor,
        build_id: snapshot.id,
        ...(other !== undefined && { locale: other }),
      })
    return { kind: 'started', cursor }
  }
  if (comparePositions(end, state.position) <= 0) return { kind: 'nothing-new', cursor: state.cursor }
  const lease = await acquire(ctx.store, 'dispatch', ctx.now)
  if (!lease) return { kind: 'busy' }
  try {
    // Another holder may have moved it since we looked.
    const current = (await ctx.store.get<DispatchState>(cursorKey)) ?? state
    if (comparePositions(end, current.position) <= 0) return { kind: 'nothing-new', cursor: current.cursor }
    const events = eventsAfter(
      log,
      current.position,
      (c, slug) => recordsBySlug(snapshot, c, other).get(slug),
      { publicUrl: ctx.publicUrl, notify },
      feed,
    )
    const subscriptions = await openSubscriptions(ctx.store).list()
    const queue = openQueue(ctx.store)
    let deliveries = 0
    const enqueuedAt = new Date(ctx.now()).toISOString()
    for (const { key, msgId, event } of events) {
      const payload = JSON.stringify(event)
      for (const subscription of subscriptions) {
        if (!wants(subscription, event.type) || !wantsLocale(subscription, feed)) continue
        const message = {
          msg_id: msgId,
          type: event.type,
          payload,
          cursor: event.data.cursor,
          enqueued_at: enqueuedAt,
          redelivery: false,
        }
        if (await queue.enqueue(subscription.id, key, message)) deliveries++
      }
    }
    await ctx.store.set(cursorKey, record())
    ctx.log('info', 'webhooks: events queued', {
      build_id: snapshot.id,
      events: events.length,
      deliveries,
      cursor,
      ...(other !== undefined && { locale: other }),
    })
    return { kind: 'queued', cursor, events: events.length, deliveries }
  } finally {
    await lease.release()
  }
}
