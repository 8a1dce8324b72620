/**
 * From a live build to queued messages. The state store holds one record,
 * `webhooks/cursor`: the change-feed position up to which every change has
 * been fanned out. When a build goes live, the changes after it become events
 * (events.ts), each queued once for every subscription that wants its type
 * (paused ones included: they keep what they miss), and the cursor moves to
 * the build's last change. So:
 *
 * - a build with no new change queues nothing, and a redeploy of the same
 *   build (or an older one, a rollback) finds the cursor already there;
 * - several gateway processes or function instances that see the same build
 *   agree through a lease: one fans out, the others find the cursor moved;
 *   one that dies midway leaves the cursor behind, and the next to look fans
 *   out again, which queues nothing twice (queue records are written once);
 * - the first build ever seen only sets the cursor: content that was there
 *   before webhooks is not news.
 */
import {
  comparePositions,
  encodeCursor,
  CHANGE_LOG_FILE,
  type ChangeLog,
  type Position,
} from '../../contract/changes.ts'
import { NOTIFY_FILE, type NotifyInfo } from '../../contract/webhook-events.ts'
import type { Snapshot } from '../artifacts.ts'
import type { StateStore } from '../auth/store/state-store.ts'
import type { Logger } from '../log.ts'
import { endOf, eventsAfter } from './events.ts'
import { acquire } from './lease.ts'
import { openQueue } from './queue.ts'
import { openSubscriptions, wants } from './subscriptions.ts'

const CURSOR_KEY = 'webhooks/cursor'

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
  const log = await readBuildJson<ChangeLog>(snapshot, CHANGE_LOG_FILE)
  if (!log || !Array.isArray(log.changes)) return { kind: 'no-change-log' }
  const end = endOf(log) ?? { time: 0, seq: 0 }
  const state = await ctx.store.get<DispatchState>(CURSOR_KEY)
  const record = (): DispatchState => ({
    position: end,
    cursor: encodeCursor(end),
    build_id: snapshot.id,
    at: new Date(ctx.now()).toISOString(),
  })
  if (!state) {
    if (await ctx.store.create(CURSOR_KEY, record()))
      ctx.log('info', 'webhooks: changes after this build will be sent', {
        cursor: encodeCursor(end),
        build_id: snapshot.id,
      })
    return { kind: 'started', cursor: encodeCursor(end) }
  }
  if (comparePositions(end, state.position) <= 0) return { kind: 'nothing-new', cursor: state.cursor }
  const lease = await acquire(ctx.store, 'dispatch', ctx.now)
  if (!lease) return { kind: 'busy' }
  try {
    // Another holder may have moved it since we looked.
    const current = (await ctx.store.get<DispatchState>(CURSOR_KEY)) ?? state
    if (comparePositions(end, current.position) <= 0) return { kind: 'nothing-new', cursor: current.cursor }
    const notify = await readBuildJson<NotifyInfo>(snapshot, NOTIFY_FILE)
    const events = eventsAfter(log, current.position, (c, slug) => snapshot.bySlug[c].get(slug), {
      publicUrl: ctx.publicUrl,
      notify,
    })
    const subscriptions = await openSubscriptions(ctx.store).list()
    const queue = openQueue(ctx.store)
    let deliveries = 0
    const enqueuedAt = new Date(ctx.now()).toISOString()
    for (const { key, msgId, event } of events) {
      const payload = JSON.stringify(event)
      for (const subscription of subscriptions) {
        if (!wants(subscription, event.type)) continue
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
    await ctx.store.set(CURSOR_KEY, record())
    ctx.log('info', 'webhooks: events queued', {
      build_id: snapshot.id,
      events: events.length,
      deliveries,
      cursor: encodeCursor(end),
    })
    return { kind: 'queued', cursor: encodeCursor(end), events: events.length, deliveries }
  } finally {
    await lease.release()
  }
}
