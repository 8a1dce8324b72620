/**
 * `deploy-succeeded-background`: Netlify runs a function of this name after
 * each successful deploy, in the background (up to 15 minutes). Only the
 * production deploy that is live fans out: a deploy preview or branch deploy
 * shares the site's Blobs but not its audience, so it sends nothing (the
 * runtime's deploy context says which; a deploy published later, by hand, is
 * picked up by webhooks-scheduled). See webhooks-pass.ts.
 */
import { report } from '../../contract/cli.ts'
import { runWebhooks } from './webhooks-pass.ts'

/** What a background function may take, less a margin. */
const BUDGET_MS = 14 * 60 * 1000

interface DeployContext {
  deploy?: { context?: string; id?: string; published?: boolean }
}

interface DeployEvent {
  payload?: { context?: string; state?: string }
}

export default async function handler(req: Request, context?: DeployContext): Promise<Response> {
  const event = (await req.json().catch(() => ({}))) as DeployEvent
  const deploy = context?.deploy
  // The runtime's own word when it gives one (not spoofable by a caller); the event's otherwise.
  const production = deploy?.id ? deploy.context === 'production' && deploy.published === true : true
  if (!production || event.payload?.context !== 'production' || event.payload.state !== 'ready')
    return new Response(null, { status: 204 })
  try {
    await runWebhooks(BUDGET_MS, true)
  } catch (error) {
    report(error)
  }
  return new Response(null, { status: 204 })
}
