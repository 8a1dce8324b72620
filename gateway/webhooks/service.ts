/**
 * Webhooks in a long-running gateway (`npm start`, `npm run dev`): after each
 * pass's look at the build being served (fanned out once it is live, the
 * WebSub hub pinged when its feeds changed) the due messages are sent. A pass
 * runs every few seconds, and at once when `kick()` says a build was swapped
 * in; passes never overlap, and the timer never keeps the process alive. The
 * Netlify functions (gateway/netlify/webhooks-*.ts) run the same pass.
 *
 * @example const webhooks = startWebhooks(config.webhooks, store, { logger, publicUrl: () => url }); webhooks.kick()
 */
import type { ArtifactStore, Snapshot } from '../artifacts.ts'
import { openStateStore } from '../auth/store/open-store.ts'
import type { StateStore } from '../auth/store/state-store.ts'
import type { Logger } from '../log.ts'
import { dispatchBuild, type DispatchResult } from './dispatch.ts'
import { loadSecretsKey, type SecretsKey } from './secrets.ts'
import { sendDue, type PassResult } from './sender.ts'
import type { WebhookSettings } from './settings.ts'
import { pingHub } from './websub.ts'

export const PASS_EVERY_MS = 5_000

export interface WebhookRuntime {
  logger: Logger
  /** The gateway's public origin (for api_url in events and the WebSub topics). */
  publicUrl: () => string | undefined
  /** The scheduling clock (tests move it); signatures always carry the wall clock. */
  now?: () => number
  /** The store (default: the one the settings name). */
  store?: StateStore
  /** Stop starting attempts after this (a function's time limit). */
  deadline?: number
}

export interface PassOutcome {
  dispatch: DispatchResult | undefined
  sent: PassResult
}

/** One pass: the build, then the queue. */
export async function webhookPass(
  settings: WebhookSettings,
  snapshot: Snapshot | undefined,
  runtime: WebhookRuntime & { secretsKey: () => Promise<SecretsKey> },
): Promise<PassOutcome> {
  const store = runtime.store ?? openStateStore(settings.store)
  const now = runtime.now ?? Date.now
  const common = { store, now, log: runtime.logger, publicUrl: runtime.publicUrl() }
  let dispatch: DispatchResult | undefined
  if (snapshot) {
    dispatch = await dispatchBuild(snapshot, { ...common, deadline: runtime.deadline })
    await pingHub(snapshot, { ...common, policy: settings.policy })
  }
  const sent = await sendDue({
    ...common,
    policy: settings.policy,
    secretsKey: runtime.secretsKey,
    retryMs: settings.retryMs,
    deadline: runtime.deadline,
  })
  return { dispatch, sent }
}

export interface WebhookService {
  /** A build was swapped in: look now rather than at the next tick. */
  kick(): void
  /** Run a pass now (after the one under way); resolves with what it did. */
  pass(): Promise<PassOutcome>
  close(): Promise<void>
}

export function startWebhooks(
  settings: WebhookSettings,
  artifacts: ArtifactStore,
  runtime: WebhookRuntime,
  everyMs = PASS_EVERY_MS,
): WebhookService {
  const store = runtime.store ?? openStateStore(settings.store)
  let key: Promise<SecretsKey> | undefined
  const secretsKey = () => {
    key ??= loadSecretsKey(settings.secretsKey)
    key.catch(() => (key = undefined))
    return key
  }
  let chain: Promise<unknown> = Promise.resolve()
  let closed = false
  const pass = (): Promise<PassOutcome> => {
    const run = chain.then(async () => {
      const snapshot = artifacts.current()
      const outcome = await webhookPass(settings, snapshot, { ...runtime, store, secretsKey })
      runtime.logger('debug', 'webhooks: pass done', { build_id: snapshot?.id, dispatch: outcome.dispatch?.kind })
      return outcome
    })
    chain = run.catch((error: Error) =>
      runtime.logger('error', 'webhooks: a pass failed; the next one tries again', { error: error.message }),
    )
    return run
  }
  const tick = () => {
    if (!closed) void pass().catch(() => undefined)
  }
  const timer = setInterval(tick, everyMs)
  timer.unref()
  setImmediate(tick)
  return {
    kick: tick,
    pass,
    async close() {
      closed = true
      clearInterval(timer)
      await chain
    },
  }
}
