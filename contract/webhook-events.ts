/**
 * The events webhooks send, shared by the sender (gateway/webhooks/) and the
 * OpenAPI document (build/openapi/webhooks.ts): one event per changed item of
 * the change feed, with the item's identity, links and the feed's cursor, never
 * its body. Payloads follow the Standard Webhooks shape: `type`, `timestamp`,
 * `data`.
 *
 * @example {"type":"content.updated","timestamp":"2026-11-02T10:00:00Z","data":{"id":"…","collection":"blog-posts",…}}
 */
import type { ChangeType } from './changes.ts'
import type { CollectionName } from './model/model.ts'

/** Every event type, in the order the docs list them. */
export const WEBHOOK_EVENT_TYPES = ['content.published', 'content.updated', 'content.removed'] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** What each event means, for the docs, the OpenAPI document and `keys webhook create --help`. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'content.published':
    'An item is published: a new file, a draft made public, or an item released at its scheduled time.',
  'content.updated': 'A published item changed.',
  'content.removed':
    'An item is no longer published: its file was removed, it was turned back into a draft, or it expired. The change feed keeps it as a tombstone.',
}

/**
 * The event of each kind of change-feed entry. A change type the feed adds
 * later (a scheduled release, an expiry) maps onto these three, so receivers
 * keep working.
 */
export const EVENT_OF_CHANGE: Record<ChangeType, WebhookEventType> = {
  created: 'content.published',
  updated: 'content.updated',
  deleted: 'content.removed',
}

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value)
}

/** `data` of every event. */
export interface WebhookEventData {
  /** The item's stable id (as in the API). */
  id: string
  collection: CollectionName
  slug: string
  /**
   * The locale whose change feed (and readers) this change is in: the site's language on a
   * single-language site. Where that locale falls back, the record may be the default locale's.
   */
  locale: string
  /** The canonical page on the marketing site (for a removed item, where it was). */
  url: string | null
  /** The item in this API (absolute when the gateway knows its public URL); null once removed. */
  api_url: string | null
  /** The record's updated_at; for a removal, when it was recorded. */
  updated_at: string
  /** When the change was recorded (the commit that made it). */
  changed_at: string
  /** The change feed's cursor just after this change: `GET /api/changes?since=<cursor>` (with `locale=` in another locale's feed) continues from here. */
  cursor: string
}

export interface WebhookEvent {
  type: WebhookEventType
  /** When the change happened (changed_at); the delivery's own time is the webhook-timestamp header. */
  timestamp: string
  data: WebhookEventData
}

/** Header names of the Standard Webhooks specification. */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const

/** Secrets as the Standard Webhooks libraries take them: `whsec_` and base64 of the key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_'

/**
 * `_build/notify.json`: what the sender needs to know of the site and cannot
 * read from the change log (written by the feeds' emitter): where a
 * collection's pages are (the URL of a removed item), the API's public URL,
 * and the WebSub hub with the feeds it is told about.
 */
export const NOTIFY_FILE = '_build/notify.json'
export const NOTIFY_FORMAT = 1

export interface NotifyInfo {
  format: typeof NOTIFY_FORMAT
  /** `api_url` of content/site.yaml, or null. */
  api_url: string | null
  /** The site's (default) language, the locale of its default change feed's events. */
  language?: string
  /** Each collection's pages on the marketing site: an item's URL is this, "/" and its slug. */
  pages: Record<CollectionName, string>
  /** A multilingual site's other locales: the pages of their translations by collection (`…/de/blog`). */
  locale_pages?: Record<string, Record<CollectionName, string>>
  /** The hub the feeds name (`websub_hub` of content/site.yaml) and the feeds' paths, or null without one. */
  websub: { hub: string; feeds: string[] } | null
}
