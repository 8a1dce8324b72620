/**
 * WebSub for the feeds: when content/site.yaml names a hub (`websub_hub`),
 * every feed links to it (`rel="hub"`, JSON Feed `hubs`), and after a build
 * goes live whose feeds differ from the ones last announced (their ETags,
 * kept in `webhooks/websub`), the hub is told with a publish ping
 * (`hub.mode=publish`, `hub.url=<feed>`, form-encoded, the form hubs such as
 * Google's and Superfeedr accept), so subscribers fetch them at once. A
 * failed ping is tried again on a later pass, with backoff.
 *
 * The first build seen with a hub (a new store, or another hub named) pings
 * every feed, where the webhooks' first build sends nothing. On purpose: a
 * publish ping is no news of its own, only "fetch this topic now". A hub that
 * has the feed already fetches it once more (feed hubs pass on only the
 * entries new to them; at worst a subscriber gets a feed whose entries it
 * knows by id), while a feed that changed while nothing was recorded (the
 * store lost or moved) would otherwise wait for its next change. A webhook
 * event states that an item changed, so there the first build is not news.
 */
import type { Snapshot } from '../artifacts.ts'
import type { StateStore } from '../auth/store/state-store.ts'
import type { Logger } from '../log.ts'
import { NOTIFY_FILE, type NotifyInfo } from '../../contract/webhook-events.ts'
import { backoffDelay } from './backoff.ts'
import { postGuarded } from './deliver.ts'
import { readBuildJson } from './dispatch.ts'
import { acquire } from './lease.ts'
import type { UrlPolicy } from './url-policy.ts'

const WEBSUB_KEY = 'webhooks/websub'
const PING_TIMEOUT_MS = 10_000

interface WebSubState {
  hub: string
  /** Each feed path's ETag when the hub last accepted a ping for it. */
  etags: Record<string, string>
  failures: number
  next_attempt_at: string | null
}

export interface WebSubContext {
  store: StateStore
  now: () => number
  log: Logger
  policy: UrlPolicy
  publicUrl: string | undefined
}

export type PingResult = 'no-hub' | 'unchanged' | 'waiting' | 'busy' | 'pinged' | 'failed'

export async function pingHub(snapshot: Snapshot, ctx: WebSubContext): Promise<PingResult> {
  const notify = await readBuildJson<NotifyInfo>(snapshot, NOTIFY_FILE)
  if (!notify?.websub) return 'no-hub'
  const { hub, feeds } = notify.websub
  const etagOf = (path: string) => snapshot.source.etag(path.slice(1)) ?? ''
  const stored = await ctx.store.get<WebSubState>(WEBSUB_KEY)
  const state: WebSubState = stored?.hub === hub ? stored : { hub, etags: {}, failures: 0, next_attempt_at: null }
  const changed = feeds.filter((path) => state.etags[path] !== etagOf(path))
  if (changed.length === 0) return 'unchanged'
  if (state.next_attempt_at && Date.parse(state.next_attempt_at) > ctx.now()) return 'waiting'
  const lease = await acquire(ctx.store, 'websub', ctx.now)
  if (!lease) return 'busy'
  try {
    // The topic is the feed's self link: the site's api_url, else the gateway's public URL.
    const base = notify.api_url ?? ctx.publicUrl ?? ''
    let failure: string | undefined
    for (const path of changed) {
      const body = new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': `${base}${path}` }).toString()
      const result = await postGuarded(hub, { 'content-type': 'application/x-www-form-urlencoded' }, body, {
        timeoutMs: PING_TIMEOUT_MS,
        policy: ctx.policy,
      })
      if (!result.ok) {
        failure = result.error ?? `HTTP ${result.status}`
        break
      }
      state.etags[path] = etagOf(path)
    }
    if (failure === undefined) {
      await ctx.store.set(WEBSUB_KEY, { ...state, failures: 0, next_attempt_at: null })
      ctx.log('info', 'websub: hub pinged', { hub, feeds: changed.length })
      return 'pinged'
    }
    const failures = state.failures + 1
    const next = new Date(ctx.now() + backoffDelay(failures)).toISOString()
    await ctx.store.set(WEBSUB_KEY, { ...state, failures, next_attempt_at: next })
    ctx.log('warn', 'websub: the hub did not take the ping; trying again later', { hub, error: failure, next })
    return 'failed'
  } finally {
    await lease.release()
  }
}
