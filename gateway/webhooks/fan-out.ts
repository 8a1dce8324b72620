/**
 * One feed's fan-out under a lease (dispatch.ts): its events queued in
 * cursor order for the subscriptions that want each, the cursor saved every
 * BATCH events. It stops at the pass's deadline (a function's time limit,
 * checked between batches; at least one batch is done whatever the
 * deadline, so every pass makes headway) or when its lease is lost (checked
 * before each event: a dispatcher that stalled past it queues nothing more).
 * The next pass resumes after the last batch saved; one that dies midway
 * redoes at most its last batch, which queues nothing twice that is still
 * waiting (queue records are written once): at least once, never a whole
 * build again.
 */
import { encodeCursor, type Position } from '../../contract/changes.ts'
import type { Snapshot } from '../artifacts.ts'
import { cursorRecord, openCursor } from './cursor.ts'
import type { DispatchContext, DispatchResult } from './dispatch.ts'
import type { PendingEvent } from './events.ts'
import type { Lease } from './lease.ts'
import { openQueue } from './queue.ts'
import type { Subscription } from './subscriptions.ts'

/** Events queued between two saves of the cursor. */
export const BATCH = 25
/** How long the lease must hold at least when a batch starts: far more than a batch takes. */
const LEASE_AHEAD_MS = 30_000

export interface FanOut {
  snapshot: Snapshot
  events: PendingEvent[]
  /** For each event, the subscriptions it is queued for. */
  targets: Subscription[][]
  /** Where the fan-out began (what the events are classified against) and where this part of it starts. */
  from: Position
  after: Position
  end: Position
  /** Another locale's feed than the default one, or undefined for the default's. */
  locale: string | undefined
  lease: Lease
}

export async function fanOut(work: FanOut, ctx: DispatchContext): Promise<DispatchResult> {
  const { snapshot, events, targets, from, after, end, locale, lease } = work
  const queue = openQueue(ctx.store)
  const cursor = openCursor(ctx.store, locale)
  const enqueuedAt = new Date(ctx.now()).toISOString()
  const logged = { build_id: snapshot.id, ...(locale !== undefined && { locale }) }
  let deliveries = 0
  let done = 0
  let queuedInBatch = 0
  /** The cursor after the last event queued: the feed's end once all are. */
  const saveProgress = async () => {
    const complete = done === events.length
    const position = complete ? end : events[done - 1]!.position
    await cursor.advance(cursorRecord(position, complete ? end : from, snapshot.id, ctx.now(), locale))
    queuedInBatch = 0
  }
  while (done < events.length) {
    // Before each event: the deadline between batches, the lease always (no store call while the slot it holds lasts).
    let stop: 'deadline' | 'lease' | undefined
    if (queuedInBatch === 0 && done > 0 && ctx.deadline !== undefined && ctx.now() >= ctx.deadline) stop = 'deadline'
    else if (!(await lease.extend(LEASE_AHEAD_MS))) stop = 'lease'
    if (stop) {
      if (queuedInBatch > 0) await saveProgress()
      const resumeAt = encodeCursor(done > 0 ? events[done - 1]!.position : after, locale)
      ctx.log('info', 'webhooks: fan-out stopped midway; the next pass resumes it', {
        ...logged,
        reason: stop === 'deadline' ? 'the deadline' : 'the lease was lost',
        events: done,
        left: events.length - done,
        cursor: resumeAt,
      })
      return { kind: 'partial', cursor: resumeAt, events: done, deliveries, left: events.length - done, reason: stop }
    }
    const { key, msgId, event } = events[done]!
    const message = {
      msg_id: msgId,
      type: event.type,
      payload: JSON.stringify(event),
      cursor: event.data.cursor,
      enqueued_at: enqueuedAt,
      redelivery: false,
    }
    const queued = await Promise.all(targets[done]!.map((s) => queue.enqueue(s.id, key, message)))
    deliveries += queued.filter(Boolean).length
    done++
    if (++queuedInBatch === BATCH || done === events.length) await saveProgress()
  }
  if (events.length === 0) await cursor.advance(cursorRecord(end, end, snapshot.id, ctx.now(), locale))
  const at = encodeCursor(end, locale)
  ctx.log('info', 'webhooks: events queued', { ...logged, events: events.length, deliveries, cursor: at })
  return { kind: 'queued', cursor: at, events: events.length, deliveries }
}
