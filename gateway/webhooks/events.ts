/**
 * The events of a build: one per item that changed after a cursor, with its
 * latest change, classified exactly as the change feed answers
 * `GET /api/changes?since=<cursor>` (changesEnvelope), so a receiver that
 * also reads the feed sees the same story. Each event carries the cursor just
 * after its change and a webhook-id derived from it: fanning the same change
 * out again gives the same id.
 */
import { createHash } from 'node:crypto'
import { changesEnvelope, encodeCursor, type ChangeLog, type Position } from '../../contract/changes.ts'
import type { CollectionName } from '../../contract/collections.ts'
import type { ContentRecord } from '../../contract/records.ts'
import { EVENT_OF_CHANGE, type NotifyInfo, type WebhookEvent } from '../../contract/webhook-events.ts'
import { positionKey } from './queue.ts'

export interface PendingEvent {
  /** Queue key segment: sorts in cursor order. */
  key: string
  msgId: string
  event: WebhookEvent
}

/** The last position in the log, or undefined for an empty log. */
export function endOf(log: ChangeLog): Position | undefined {
  const last = log.changes.at(-1)
  return last ? { time: last[0], seq: last[1] } : undefined
}

export interface EventLinks {
  /** The gateway's public origin, for api_url; undefined leaves api_url relative. */
  publicUrl: string | undefined
  notify: NotifyInfo | undefined
}

export function eventsAfter(
  log: ChangeLog,
  since: Position,
  recordOf: (collection: CollectionName, slug: string) => ContentRecord | undefined,
  links: EventLinks,
): PendingEvent[] {
  // Where each item's latest change after the cursor is: its event's cursor.
  const latest = new Map<string, Position>()
  for (const [time, seq, , collection, slug] of log.changes)
    if (time > since.time || (time === since.time && seq > since.seq))
      latest.set(`${collection}/${slug}`, { time, seq })
  const { data } = changesEnvelope(log, recordOf, { since, limit: Number.MAX_SAFE_INTEGER })
  const apiBase = links.publicUrl ?? links.notify?.api_url ?? ''
  return data.map((entry) => {
    const position = latest.get(`${entry.collection}/${entry.slug}`)!
    const cursor = encodeCursor(position)
    const type = EVENT_OF_CHANGE[entry.change]
    const removed = entry.change === 'deleted'
    const record = removed ? undefined : recordOf(entry.collection, entry.slug)
    const page = links.notify ? `${links.notify.pages[entry.collection]}/${entry.slug}` : null
    const event: WebhookEvent = {
      type,
      timestamp: entry.changed_at,
      data: {
        id: entry.id,
        collection: entry.collection,
        slug: entry.slug,
        url: record ? String(record.url) : page,
        api_url: entry.href === null ? null : `${apiBase}${entry.href}`,
        updated_at: entry.updated_at,
        changed_at: entry.changed_at,
        cursor,
      },
    }
    const msgId = `msg_${createHash('sha256').update(`${cursor}\0${entry.id}\0${type}`).digest('hex').slice(0, 32)}`
    return { key: positionKey(position.time, position.seq), msgId, event }
  })
}
