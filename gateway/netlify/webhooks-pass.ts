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
import { ArtifactStore } from '../artifacts.ts'
import { createLogger } from '../log.ts'
import { loadSecretsKey } from '../webhooks/secrets.ts'
import { webhookSettingsFrom } from '../webhooks/settings.ts'
import { urlPolicyFrom } from '../webhooks/url-policy.ts'
import { readSettings } from '../../contract/settings.ts'
import { webhookPass, type PassOutcome } from '../webhooks/service.ts'
import { findDist } from './dist-dir.ts'

/** Run passes until nothing more goes out or `budgetMs` is spent; `dispatch` false skips the look at the build. */
export async function runWebhooks(budgetMs: number, dispatch: boolean): Promise<PassOutcome> {
  const settings = readSettings(process.env, 'netlify')
  // Netlify names the site in URL: production unless it is this machine (the local emulation).
  const siteUrl = settings.PUBLIC_URL ?? settings.URL
  const root = process.cwd()
  const configured = webhookSettingsFrom(settings, root)
  const webhooks = {
    ...configured,
    policy: urlPolicyFrom({ ...settings, PUBLIC_URL: siteUrl }),
  }
  const logger = createLogger(settings.LOG_LEVEL)
  const deadline = Date.now() + budgetMs
  let snapshot: Awaited<ReturnType<ArtifactStore['reload']>> | undefined
  if (dispatch) {
    const dir = await findDist(resolve(root, settings.DIST_DIR), settings.LAMBDA_TASK_ROOT ?? root)
    snapshot = await new ArtifactStore(dir, { cacheMb: 8, checkFiles: 'on-read' }).reload()
  }
  const runtime = {
    logger,
    publicUrl: () => siteUrl,
    secretsKey: () => loadSecretsKey(configured.secretsKey),
    deadline,
  }
  let outcome = await webhookPass(webhooks, snapshot, runtime)
  // What a receiver answered meanwhile may have made more due (a dispatch that queued during the pass).
  while (outcome.sent.delivered > 0 && outcome.sent.waiting > 0 && Date.now() < deadline)
    outcome = await webhookPass(webhooks, undefined, runtime)
  return outcome
}
