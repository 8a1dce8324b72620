/**
 * Webhooks on Netlify, where no process lives on: the functions below run one
 * pass of the sender (gateway/webhooks/service.ts) over the build deployed
 * with them, never in a request's path.
 *
 * - `deploy-succeeded-background` (webhooks-deploy.ts): Netlify calls it when a
 *   deploy has succeeded; as a background function it may take up to 15
 *   minutes. It fans out the published production build's changes and sends.
 * - `webhooks-scheduled` (webhooks-scheduled.ts): every few minutes (netlify.toml),
 *   for 20 seconds at most: retries that have come due, and the same look at
 *   the published build in case a deploy event was missed (a rollback or a
 *   deploy published later by hand).
 *
 * Both read their state from the site's Blobs, so any number of instances
 * agree (leases, write-once queue records).
 */
import { resolve } from 'node:path'
import { ArtifactStore, type Snapshot } from '../artifacts.ts'
import type { StateStore } from '../auth/store/state-store.ts'
import { createLogger } from '../log.ts'
import { openStateStore } from '../auth/store/open-store.ts'
import { runRecord, writeLastRun, type RunRecord } from '../webhooks/last-run.ts'
import { loadSecretsKey } from '../webhooks/secrets.ts'
import { webhookSettingsFrom, type WebhookSettings } from '../webhooks/settings.ts'
import { urlPolicyFrom } from '../webhooks/url-policy.ts'
import { readSettings, type Settings } from '../../contract/settings.ts'
import { webhookPass, type PassOutcome } from '../webhooks/service.ts'
import { findDist } from './dist-dir.ts'

/** Which function runs, for which deploy event, and why it does nothing if it does nothing. */
export type RunTrigger = Pick<RunRecord, 'trigger' | 'deploy_id' | 'context' | 'ignored'>

/**
 * Run passes until nothing more goes out or `budgetMs` is spent (nothing
 * when `trigger.ignored` says why not), then record the run in the state
 * store (last-run.ts). `dispatch` false skips the look at the build.
 */
export async function runWebhooks(
  budgetMs: number,
  trigger: RunTrigger,
  dispatch = true,
  env: Record<string, string | undefined> = process.env,
): Promise<PassOutcome | undefined> {
  const settings = readSettings(env, 'netlify')
  // Netlify names the site in URL: production unless it is this machine (the local emulation).
  const siteUrl = settings.PUBLIC_URL ?? settings.URL
  const configured = webhookSettingsFrom(settings, process.cwd())
  const webhooks = { ...configured, policy: urlPolicyFrom({ ...settings, PUBLIC_URL: siteUrl }), publicUrl: siteUrl }
  const store = openStateStore(configured.store)
  let outcome: PassOutcome | undefined
  try {
    if (trigger.ignored === null) outcome = await passes(settings, webhooks, store, budgetMs, dispatch)
  } catch (error) {
    await writeLastRun(store, runRecord(trigger, outcome, new Date(), error))
    throw error
  }
  await writeLastRun(store, runRecord(trigger, outcome, new Date()))
  return outcome
}

/** Passes until nothing more goes out or the budget is spent. */
async function passes(
  settings: Settings,
  webhooks: WebhookSettings & { publicUrl: string | undefined },
  store: StateStore,
  budgetMs: number,
  dispatch: boolean,
): Promise<PassOutcome> {
  const deadline = Date.now() + budgetMs
  let snapshot: Snapshot | undefined
  if (dispatch) {
    const root = process.cwd()
    const dir = await findDist(resolve(root, settings.DIST_DIR), settings.LAMBDA_TASK_ROOT ?? root)
    snapshot = await new ArtifactStore(dir, { cacheMb: 8, checkFiles: 'on-read' }).reload()
  }
  const runtime = {
    logger: createLogger(settings.LOG_LEVEL),
    publicUrl: () => webhooks.publicUrl,
    secretsKey: () => loadSecretsKey(webhooks.secretsKey),
    store,
    deadline,
  }
  const outcome = await webhookPass(webhooks, snapshot, runtime)
  // What a receiver answered meanwhile may have made more due; a fan-out cut by the deadline resumes next time.
  // The run's counts are its passes' together; `waiting` is what the last one left.
  let last = outcome.sent
  while (last.delivered > 0 && last.waiting > 0 && Date.now() < deadline) {
    last = (await webhookPass(webhooks, undefined, runtime)).sent
    outcome.sent = {
      delivered: outcome.sent.delivered + last.delivered,
      failed: outcome.sent.failed + last.failed,
      waiting: last.waiting,
    }
  }
  return outcome
}
