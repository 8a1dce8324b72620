/**
 * Webhook subscriptions: runtime data like API keys, kept in the state store
 * (files under gateway/.data/ locally, Netlify Blobs on Netlify) under
 * `webhooks/subscriptions/<id>`. A subscription is an endpoint URL, the event
 * types it wants, whether it is paused, a per-endpoint timeout, and its
 * signing secrets, sealed (secrets.ts): the newest first, an older one kept
 * until its overlap ends after a rotation, so both sign meanwhile.
 *
 * What the sender learns about an endpoint (failures, backoff, disabled) is
 * kept apart, under `webhooks/state/<id>` (queue.ts), so the CLI and the
 * sender never overwrite each other's fields.
 */
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { LOCALE_QUERY_PATTERN } from '../../contract/locales.ts'
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../contract/webhook-events.ts'
import type { StateStore } from '../auth/store/state-store.ts'
import { WebhookError } from './errors.ts'
import type { SealedSecret } from './secrets.ts'

export const SUBSCRIPTIONS_PREFIX = 'webhooks/subscriptions/'
export const ID_PATTERN = /^wh_[0-9a-f]{16}$/
const LOCALE_TAG = new RegExp(LOCALE_QUERY_PATTERN)

export const DEFAULT_TIMEOUT_MS = 10_000
export const MAX_TIMEOUT_MS = 15_000

const Sealed = z.strictObject({ kid: z.string(), iv: z.string(), ciphertext: z.string(), tag: z.string() })
const instant = z.iso.datetime({ offset: true })

const SubscriptionRecord = z.strictObject({
  id: z.string().regex(ID_PATTERN),
  url: z.string().url().max(2000),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1),
  description: z.string().max(200),
  status: z.enum(['active', 'paused']),
  timeout_ms: z.number().int().min(1000).max(MAX_TIMEOUT_MS),
  /**
   * The change feeds whose events it wants on a multilingual site: those locales, or `all`.
   * Absent (every subscription made before locales, and the default): the default locale's only,
   * so an endpoint never gets events of another feed it did not ask for.
   */
  locales: z.union([z.literal('all'), z.array(z.string().regex(LOCALE_TAG)).min(1)]).optional(),
  /** Newest first; each signs until it expires (null: the current one). */
  secrets: z.array(z.strictObject({ sealed: Sealed, created_at: instant, expires_at: instant.nullable() })).min(1),
  created_at: instant,
  updated_at: instant,
})
export type Subscription = z.infer<typeof SubscriptionRecord>

export function newSubscriptionId(): string {
  return `wh_${randomBytes(8).toString('hex')}`
}

const keyOf = (id: string) => `${SUBSCRIPTIONS_PREFIX}${id}`

export interface Subscriptions {
  list(): Promise<Subscription[]>
  find(id: string): Promise<Subscription | undefined>
  /** The subscription, or a WEBHOOK_NOT_FOUND error naming the id. */
  get(id: string): Promise<Subscription>
  save(subscription: Subscription): Promise<void>
  /** Change it as one step (none of concurrent changes lost); `change` may run more than once. WEBHOOK_NOT_FOUND when there is none. */
  update(id: string, change: (subscription: Subscription) => Subscription): Promise<Subscription>
  remove(id: string): Promise<void>
}

export function openSubscriptions(store: StateStore): Subscriptions {
  async function find(id: string): Promise<Subscription | undefined> {
    if (!ID_PATTERN.test(id)) return undefined
    const parsed = SubscriptionRecord.safeParse(await store.get(keyOf(id)))
    return parsed.success ? parsed.data : undefined
  }
  return {
    find,
    async get(id) {
      const found = await find(id)
      if (!found)
        throw new WebhookError(`no webhook subscription ${id} (see npm run keys -- webhook list)`, 'WEBHOOK_NOT_FOUND')
      return found
    },
    async list() {
      const ids = (await store.list(SUBSCRIPTIONS_PREFIX)).map((k) => k.slice(SUBSCRIPTIONS_PREFIX.length))
      const all = await Promise.all(ids.map(find))
      return all
        .filter((s): s is Subscription => s !== undefined)
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    },
    async save(subscription) {
      await store.set(keyOf(subscription.id), SubscriptionRecord.parse(subscription))
    },
    async update(id, change) {
      const missing = () =>
        new WebhookError(`no webhook subscription ${id} (see npm run keys -- webhook list)`, 'WEBHOOK_NOT_FOUND')
      if (!ID_PATTERN.test(id)) throw missing()
      const updated = await store.update<Subscription>(keyOf(id), (current) => {
        const parsed = SubscriptionRecord.safeParse(current)
        if (!parsed.success) throw missing()
        return SubscriptionRecord.parse(change(parsed.data))
      })
      return updated!
    },
    async remove(id) {
      await store.delete(keyOf(id))
    },
  }
}

/** The secrets that sign at `now`: the current one and any still in its overlap. */
export function signingSecrets(subscription: Subscription, now: number): SealedSecret[] {
  return subscription.secrets
    .filter((s) => s.expires_at === null || Date.parse(s.expires_at) > now)
    .map((s) => s.sealed)
}

export function wants(subscription: Subscription, type: WebhookEventType): boolean {
  return subscription.events.includes(type)
}

/**
 * Whether it wants the events of a change feed: a single-language site's always; on a multilingual
 * site the default locale's unless it names its locales, else those (matched without regard to case).
 */
export function wantsLocale(
  subscription: Subscription,
  feed: { locale: string; defaultLocale: string | undefined },
): boolean {
  if (feed.defaultLocale === undefined) return true
  const { locales } = subscription
  if (locales === undefined) return feed.locale === feed.defaultLocale
  return locales === 'all' || locales.some((l) => l.toLowerCase() === feed.locale.toLowerCase())
}
