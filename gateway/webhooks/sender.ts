/**
 * One pass of the sender: for each subscription that is active, not disabled
 * and not backing off, deliver what waits for it, oldest cursor first, under a
 * lease (lease.ts) so one sender works an endpoint at a time. Endpoints are
 * served side by side and in turns (turns.ts): ENDPOINTS_AT_ONCE at a time,
 * MESSAGES_PER_TURN each before the next in line, so an endpoint that is slow
 * to answer, or has a long backlog, delays no other's events within the
 * pass's deadline (a scheduled function's time). A failure stops
 * that endpoint's pass: later messages wait behind it (so a receiver gets
 * every event in cursor order), the circuit opens until the next attempt
 * (backoff.ts), and one message is tried when it is due; a success closes it.
 * An endpoint failing for longer than the bound is disabled, with a warning in
 * the log; its messages stay queued for `webhook resume`. A message leaves the
 * queue only after a 2xx: delivery is at least once, and receivers deduplicate
 * by webhook-id.
 */
import type { StateStore } from '../auth/store/state-store.ts'
import type { Logger } from '../log.ts'
import { nextAttemptDelay } from './backoff.ts'
import { attemptDelivery, type AttemptResult } from './deliver.ts'
import { acquire } from './lease.ts'
import { HEALTHY, openQueue, type EndpointState, type Queue } from './queue.ts'
import { unseal, type SecretsKey } from './secrets.ts'
import { openSubscriptions, signingSecrets, type Subscription } from './subscriptions.ts'
import { inTurns } from './turns.ts'
import type { UrlPolicy } from './url-policy.ts'

/** Endpoints sent to at once: each attempt waits on its endpoint's answer (up to its timeout), not on this host. */
export const ENDPOINTS_AT_ONCE = 8
/** Messages an endpoint is sent in one turn before the next endpoint in line has its turn. */
export const MESSAGES_PER_TURN = 10

export interface SenderContext {
  store: StateStore
  /** The clock of scheduling: backoff, the disabling bound, leases (tests move it). */
  now: () => number
  log: Logger
  policy: UrlPolicy
  secretsKey: () => Promise<SecretsKey>
  /** How long an endpoint may fail before it is disabled (WEBHOOK_RETRY_HOURS). */
  retryMs: number
  /** Start no attempt that could end after this time (a function's time limit), on the `now` clock. */
  deadline?: number
}

export interface PassResult {
  delivered: number
  failed: number
  /** Messages still waiting (backing off, paused, disabled, or past the deadline). */
  waiting: number
}

export async function sendDue(ctx: SenderContext): Promise<PassResult> {
  const queue = openQueue(ctx.store)
  const total: PassResult = { delivered: 0, failed: 0, waiting: 0 }
  const endpoints: Endpoint[] = []
  // What waits for each, looked up side by side (a store round trip each).
  await inTurns(await openSubscriptions(ctx.store).list(), ENDPOINTS_AT_ONCE, async (subscription) => {
    const keys = await queue.waiting(subscription.id)
    total.waiting += keys.length
    if (keys.length > 0) endpoints.push({ subscription, keys, next: 0 })
    return false
  })
  endpoints.sort(
    (a, b) =>
      a.subscription.created_at.localeCompare(b.subscription.created_at) ||
      a.subscription.id.localeCompare(b.subscription.id),
  )
  await inTurns(endpoints, ENDPOINTS_AT_ONCE, async (endpoint) => {
    const turn = await sendTurn(endpoint, queue, ctx)
    total.delivered += turn.delivered
    total.failed += turn.failed
    total.waiting -= turn.delivered
    return turn.more
  })
  return total
}

/** An endpoint with messages waiting, and how far this pass has gone through them. */
interface Endpoint {
  subscription: Subscription
  keys: string[]
  next: number
}

/**
 * One turn: up to MESSAGES_PER_TURN of the endpoint's messages, in cursor
 * order, under its lease; `more` when it was cut short by the turn's share
 * alone (not by a failure, the deadline or a lost lease).
 */
async function sendTurn(
  endpoint: Endpoint,
  queue: Queue,
  ctx: SenderContext,
): Promise<{ delivered: number; failed: number; more: boolean }> {
  const { subscription } = endpoint
  const counts = { delivered: 0, failed: 0, more: false }
  // Read again each turn: another instance may have sent, failed or been told to wait meanwhile.
  let state = await queue.state(subscription.id)
  const due =
    subscription.status === 'active' &&
    !state.disabled_at &&
    (!state.next_attempt_at || Date.parse(state.next_attempt_at) <= ctx.now())
  if (!due) return counts
  const lease = await acquire(ctx.store, `endpoint-${subscription.id}`, ctx.now)
  if (!lease) return counts
  try {
    let secrets: string[]
    try {
      const key = await ctx.secretsKey()
      secrets = signingSecrets(subscription, ctx.now()).map((s) => unseal(key, subscription.id, s))
    } catch (error) {
      ctx.log('error', 'webhooks: cannot sign for this subscription; its messages stay queued', {
        subscription: subscription.id,
        error: (error as Error).message,
      })
      return counts
    }
    let tried = 0
    let stopped = false
    while (endpoint.next < endpoint.keys.length && tried < MESSAGES_PER_TURN) {
      const pastDeadline = ctx.deadline !== undefined && ctx.now() + subscription.timeout_ms > ctx.deadline
      if (pastDeadline || !(await lease.extend(subscription.timeout_ms + 5_000))) {
        stopped = true
        break
      }
      const key = endpoint.keys[endpoint.next]!
      const message = await queue.read(key)
      if (!message) {
        // Sent meanwhile by another sender, or removed.
        endpoint.next++
        continue
      }
      tried++
      const result = await attemptDelivery(
        { url: subscription.url, msgId: message.msg_id, payload: message.payload, secrets },
        { timeoutMs: subscription.timeout_ms, policy: ctx.policy },
      )
      await queue.log(subscription.id, {
        at: new Date(ctx.now()).toISOString(),
        msg_id: message.msg_id,
        type: message.type,
        cursor: message.cursor,
        status: result.status,
        ok: result.ok,
        latency_ms: result.latencyMs,
        error: result.error,
        payload: message.payload,
        redelivery: message.redelivery,
      })
      if (result.ok) {
        await queue.done(key)
        endpoint.next++
        counts.delivered++
        state = { ...HEALTHY, last_success_at: new Date(ctx.now()).toISOString() }
        continue
      }
      counts.failed++
      if (result.refused)
        ctx.log('warn', 'webhooks: delivery refused: the endpoint is not a public address (SSRF guard)', {
          subscription: subscription.id,
          url: subscription.url,
          error: result.error,
        })
      state = failed(subscription, state, result, ctx)
      stopped = true
      break
    }
    await queue.setState(subscription.id, state)
    counts.more = !stopped && endpoint.next < endpoint.keys.length
  } finally {
    await lease.release()
  }
  return counts
}

function failed(subscription: Subscription, state: EndpointState, result: AttemptResult, ctx: SenderContext) {
  const now = ctx.now()
  const failures = state.failures + 1
  const failingSince = state.failing_since ?? new Date(now).toISOString()
  const next: EndpointState = {
    ...state,
    failures,
    failing_since: failingSince,
    next_attempt_at: new Date(now + nextAttemptDelay(failures, result.retryAfterMs)).toISOString(),
  }
  if (now - Date.parse(failingSince) < ctx.retryMs) return next
  const hours = Math.round(ctx.retryMs / 3_600_000)
  const reason = `failed ${failures} times in a row since ${failingSince} (last: ${result.error ?? `HTTP ${result.status}`}); retried for ${hours} hours`
  ctx.log('warn', 'webhooks: endpoint disabled; its messages stay queued until `npm run keys -- webhook resume`', {
    subscription: subscription.id,
    url: subscription.url,
    reason,
  })
  return { ...next, next_attempt_at: null, disabled_at: new Date(now).toISOString(), disabled_reason: reason }
}
