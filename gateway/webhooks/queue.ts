/**
 * The durable delivery queue, in the same state store as the subscriptions:
 *
 * - `webhooks/queue/<subscription>/<position>`: one message waiting for one
 *   endpoint, keyed by its change-feed position so a listing is in cursor
 *   order; written once (`create`), so fanning the same change out twice
 *   queues it once; deleted only after the endpoint answered 2xx.
 * - `webhooks/sent/<subscription>/<position>`: that a message was delivered
 *   (and its queue record deleted), kept SENT_KEEP_SECONDS. A dispatcher
 *   that lost its lease midway saved no progress for what it queued, so the
 *   instance that takes over fans those changes out again from the cursor;
 *   one already delivered meanwhile (a sender's pass ran in between) is not
 *   queued a second time.
 * - `webhooks/state/<subscription>`: what the sender knows of the endpoint:
 *   consecutive failures, since when, the next attempt, disabled or not.
 * - `webhooks/log/<subscription>/<time>`: the delivery log, one record per
 *   attempt (time, status, latency, error, and the message, for redelivery),
 *   the newest LOG_KEEP kept.
 */
import { randomBytes } from 'node:crypto'
import type { StateStore } from '../auth/store/state-store.ts'
import type { WebhookEventType } from '../../contract/webhook-events.ts'

export const LOG_KEEP = 100
/** How long a delivered message's position is remembered: far longer than a lease can be lost for. */
export const SENT_KEEP_SECONDS = 24 * 3600

export interface QueuedMessage {
  /** The webhook-id: the same for every attempt and endpoint of this event. */
  msg_id: string
  type: WebhookEventType
  /** The body exactly as signed and sent. */
  payload: string
  cursor: string
  enqueued_at: string
  /** Sent again by an operator (`webhook redeliver`). */
  redelivery: boolean
}

export interface EndpointState {
  failures: number
  /** The first failure since the last success: the disabling bound counts from here. */
  failing_since: string | null
  /** Not before this (backoff or Retry-After): the circuit is open until then. */
  next_attempt_at: string | null
  disabled_at: string | null
  disabled_reason: string | null
  last_success_at: string | null
}

export const HEALTHY: EndpointState = {
  failures: 0,
  failing_since: null,
  next_attempt_at: null,
  disabled_at: null,
  disabled_reason: null,
  last_success_at: null,
}

export interface LoggedAttempt {
  at: string
  msg_id: string
  type: WebhookEventType
  cursor: string
  /** HTTP status, or null when no answer came (timeout, refused address, connection error). */
  status: number | null
  ok: boolean
  latency_ms: number
  error: string | null
  payload: string
  redelivery: boolean
}

const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** A queue key's last segment for a change-feed position, sorting as the positions do. */
export function positionKey(time: number, seq: number): string {
  return `${pad(time, 12)}-${pad(seq, 9)}`
}

/** Where every subscription's queue is: `<root><subscription id>/<position>`. */
export const QUEUE_ROOT = 'webhooks/queue/'
const SENT_ROOT = 'webhooks/sent/'
const queuePrefix = (id: string) => `${QUEUE_ROOT}${id}/`
const sentPrefix = (id: string) => `${SENT_ROOT}${id}/`
const logPrefix = (id: string) => `webhooks/log/${id}/`
const stateKey = (id: string) => `webhooks/state/${id}`

export function openQueue(store: StateStore) {
  return {
    /** Queue `message` for subscription `id` at `position` once; false when it was already queued or delivered. */
    async enqueue(id: string, position: string, message: QueuedMessage): Promise<boolean> {
      if ((await store.get(`${sentPrefix(id)}${position}`)) !== undefined) return false
      return store.create(`${queuePrefix(id)}${position}`, message)
    },
    /** The keys of what waits for `id`, in cursor order. */
    waiting(id: string): Promise<string[]> {
      return store.list(queuePrefix(id))
    },
    read(key: string): Promise<QueuedMessage | undefined> {
      return store.get<QueuedMessage>(key)
    },
    /** `key` (one of `waiting`'s) was delivered: remembered as sent, then taken off the queue. */
    async done(key: string): Promise<void> {
      await store.set(key.replace(QUEUE_ROOT, SENT_ROOT), true, SENT_KEEP_SECONDS)
      await store.delete(key)
    },
    async dropAll(id: string): Promise<void> {
      for (const key of await store.list(queuePrefix(id))) await store.delete(key)
      for (const key of await store.list(sentPrefix(id))) await store.delete(key)
      for (const key of await store.list(logPrefix(id))) await store.delete(key)
      await store.delete(stateKey(id))
    },
    async state(id: string): Promise<EndpointState> {
      return { ...HEALTHY, ...(await store.get<EndpointState>(stateKey(id))) }
    },
    setState(id: string, state: EndpointState): Promise<void> {
      return store.set(stateKey(id), state)
    },
    async log(id: string, attempt: LoggedAttempt): Promise<void> {
      const key = `${logPrefix(id)}${pad(Date.parse(attempt.at), 13)}-${randomBytes(3).toString('hex')}`
      await store.set(key, attempt)
      const keys = await store.list(logPrefix(id))
      for (const old of keys.slice(0, Math.max(0, keys.length - LOG_KEEP))) await store.delete(old)
    },
    /** The newest `limit` attempts, newest first. */
    async attempts(id: string, limit = 20): Promise<LoggedAttempt[]> {
      const keys = (await store.list(logPrefix(id))).slice(-limit).reverse()
      const found = await Promise.all(keys.map((k) => store.get<LoggedAttempt>(k)))
      return found.filter((a): a is LoggedAttempt => a !== undefined)
    },
  }
}

export type Queue = ReturnType<typeof openQueue>
