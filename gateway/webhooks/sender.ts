/**
 * One pass of the sender: for each subscription that is active, not disabled
 * and not backing off, deliver what waits for it, oldest cursor first, under a
 * lease (lease.ts) so one sender works an endpoint at a time. A failure stops
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
import type { UrlPolicy } from './url-policy.ts'

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
  for (const subscription of await openSubscriptions(ctx.store).list()) {
    const keys = await queue.waiting(subscription.id)
    if (keys.length === 0) continue
    const state = await queue.state(subscription.id)
    const due =
      subscription.status === 'active' &&
      !state.disabled_at &&
      (!state.next_attempt_at || Date.parse(state.next_attempt_at) <= ctx.now())
    const done = due ? await sendTo(subscription, state, keys, queue, ctx) : { delivered: 0, failed: 0 }
    total.delivered += done.delivered
    total.failed += done.failed
    total.waiting += keys.length - done.delivered
  }
  return total
}

async function sendTo(
  subscription: Subscription,
  state: EndpointState,
  keys: string[],
  queue: Queue,
  ctx: SenderContext,
): Promise<{ delivered: number; failed: number }> {
  const counts = { delivered: 0, failed: 0 }
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
    for (const key of keys) {
      if (ctx.deadline !== undefined && ctx.now() + subscription.timeout_ms > ctx.deadline) break
      if (!(await lease.extend(subscription.timeout_ms + 5_000))) break
      const message = await queue.read(key)
      if (!message) continue
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
        counts.delivered++
        state = { ...HEALTHY, last_success_at: new Date(ctx.now()).toISOString() }
        continue
      }
      counts.failed++
      state = failed(subscription, state, result, ctx)
      break
    }
    await queue.setState(subscription.id, state)
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
