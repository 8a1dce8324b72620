/**
 * `deploy-succeeded-background`: Netlify runs a function of this name after
 * each successful deploy, in the background (up to 15 minutes). Only the
 * production deploy that is live fans out: a deploy preview or branch deploy
 * shares the site's Blobs but not its audience, so it sends nothing (the
 * runtime's deploy context says which; a deploy published later, by hand, is
 * picked up by webhooks-scheduled). Netlify has its answer at once and the
 * work goes on; its end, ignored or done, is the run record it writes
 * (gateway/webhooks/last-run.ts). See webhooks-pass.ts.
 */
import { report } from '../../contract/cli.ts'
import { runWebhooks } from './webhooks-pass.ts'

/** What a background function may take, less a margin. */
const BUDGET_MS = 14 * 60 * 1000

interface DeployContext {
  deploy?: { context?: string; id?: string; published?: boolean }
}

interface DeployEvent {
  payload?: { id?: string; context?: string; state?: string }
}

export default async function handler(req: Request, context?: DeployContext): Promise<Response> {
  const event = (await req.json().catch(() => ({}))) as DeployEvent
  const deploy = context?.deploy
  const payload = event.payload ?? {}
  try {
    await runWebhooks(BUDGET_MS, {
      trigger: 'deploy-succeeded',
      deploy_id: typeof payload.id === 'string' ? payload.id.slice(0, 100) : null,
      context: typeof payload.context === 'string' ? payload.context.slice(0, 50) : null,
      ignored: whyIgnored(payload, deploy),
    })
  } catch (error) {
    report(error)
  }
  return new Response(null, { status: 204 })
}

/** Why this event sends nothing, or null for the live production deploy. */
function whyIgnored(payload: NonNullable<DeployEvent['payload']>, deploy: DeployContext['deploy']): string | null {
  // The runtime's own word when it gives one (not spoofable by a caller); the event's otherwise.
  if (deploy?.id && !(deploy.context === 'production' && deploy.published === true))
    return `this deploy is not the published production deploy (${deploy.context ?? 'no context'})`
  if (payload.context !== 'production') return `the ${String(payload.context ?? 'unnamed')} context is not live`
  if (payload.state !== 'ready') return `the deploy is ${String(payload.state ?? 'in no state')}, not ready`
  return null
}
