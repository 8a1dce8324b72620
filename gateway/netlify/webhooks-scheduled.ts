/**
 * `webhooks-scheduled`: a scheduled function (netlify.toml sets how often),
 * which Netlify runs on the published deploy only. Sends what has come due
 * (retries) within a scheduled function's time, and fans out the published
 * build if no deploy event did. See webhooks-pass.ts.
 */
import { report } from '../../contract/cli.ts'
import { runWebhooks } from './webhooks-pass.ts'

/** A scheduled function has 30 seconds; an attempt takes at most an endpoint's timeout (15 s). */
const BUDGET_MS = 20_000

export default async function handler(): Promise<Response> {
  try {
    await runWebhooks(BUDGET_MS, { trigger: 'scheduled', deploy_id: null, context: null, ignored: null })
  } catch (error) {
    report(error)
  }
  return new Response(null, { status: 204 })
}
