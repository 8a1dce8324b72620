/**
 * The events of a build: one per item that changed after a cursor, with its
 * latest change, classified exactly as the change feed answers
 * `GET /api/changes?since=<cursor>` (changesEnvelope), so a receiver that
 * also reads the feed sees the same story. Each event carries the cursor just
 * after its change and a webhook-id derived from it: fanning the same change
 * out again gives the same id. A multilingual site's other locales have
 * feeds of their own: their events name that locale, carry its cursors
 * (`de_…`) and link the item in it.
 */
import { createHash } from 'node:crypto'
import { changesEnvelope, encodeCursor, type ChangeLog, type Position } from '../../contract/changes.ts'
import type { CollectionName } from '../../contract/model/model.ts'
import type { ContentRecord } from '../../contract/records.ts'
import { EVENT_OF_CHANGE, type NotifyInfo, type WebhookEvent } from '../../contract/webhook-events.ts'
import { positionKey } from './queue.ts'

export interface PendingEvent {
  /** The item's latest change after the cursor: the event's place in the feed. */
  position: Position
  /** Queue key segment: sorts in cursor order (another locale's after the default's at one position). */
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

/** Which feed the log is: its locale, and on a multilingual site the default one (undefined: a single-language site). */
export interface EventFeed {
  locale: string
  defaultLocale: string | undefined
}

export function eventsAfter(
  log: ChangeLog,
  since: Position,
  recordOf: (collection: CollectionName, slug: string) => ContentRecord | undefined,
  links: EventLinks,
  feed: EventFeed,
): PendingEvent[] {
  const other = feed.defaultLocale !== undefined && feed.locale !== feed.defaultLocale ? feed.locale : undefined
  // Where each item's latest change after the cursor is: its event's cursor.
  const latest = new Map<string, Position>()
  for (const [time, seq, , , , id] of log.changes)
    if (time > since.time || (time === since.time && seq > since.seq)) latest.set(id, { time, seq })
  const { data } = changesEnvelope(
    log,
    recordOf,
    { since, limit: Number.MAX_SAFE_INTEGER, ...(other !== undefined && { locale: other }) },
    feed.defaultLocale,
  )
  const apiBase = links.publicUrl ?? links.notify?.api_url ?? ''
  return data.map((entry) => {
    const position = latest.get(entry.id)!
    const cursor = encodeCursor(position, other)
    const type = EVENT_OF_CHANGE[entry.change]
    const removed = entry.change === 'deleted'
    const record = removed ? undefined : recordOf(entry.collection, entry.slug)
    // A removed record's page: a translation's is in its locale.
    const pages =
      entry.locale !== undefined && entry.locale !== feed.defaultLocale
        ? links.notify?.locale_pages?.[entry.locale]
        : links.notify?.pages
    const event: WebhookEvent = {
      type,
      timestamp: entry.changed_at,
      data: {
        id: entry.id,
        collection: entry.collection,
        slug: entry.slug,
        locale: feed.locale,
        url: record ? String(record.url) : pages ? `${pages[entry.collection]}/${entry.slug}` : null,
        api_url: entry.href === null ? null : `${apiBase}${entry.href}`,
        updated_at: entry.updated_at,
        changed_at: entry.changed_at,
        cursor,
      },
    }
    const msgId = `msg_${createHash('sha256').update(`${cursor}\0${entry.id}\0${type}`).digest('hex').slice(0, 32)}`
    const key = positionKey(position.time, position.seq)
    return { position, key: other === undefined ? key : `${key}-${other}`, msgId, event }
  })
}
