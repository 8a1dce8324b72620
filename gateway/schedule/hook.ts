/**
 * Publishing on time on Netlify, where no process waits for the moment: the
 * scheduled function `publish-scheduled` (every minute, netlify.toml) reads
 * the deployed build's manifest and, once its next release or expiry has
 * passed, calls the site's build hook (NETLIFY_BUILD_HOOK_URL): Netlify then
 * builds and deploys, and that build publishes the release. One call per
 * build and release time, recorded in the state store (the site's Blobs), so
 * the minutes while the build runs call nothing again; if the deployed build
 * is still the same half an hour later (the build failed), it calls again.
 */
import type { StateStore } from '../auth/store/state-store.ts'
import type { Logger } from '../log.ts'
import { nextScheduledMs } from '../../contract/schedule.ts'
import type { BuildInfo } from '../../contract/manifest.ts'

/** How long one call stands for a build and release time before it is made again. */
export const HOOK_RETRY_SECONDS = 30 * 60
const HOOK_TIMEOUT_MS = 10_000

export type ScheduleCheck =
  | { action: 'none'; reason: 'nothing scheduled' | 'not due' }
  | { action: 'waiting'; reason: 'no build hook' | 'called already' }
  | { action: 'called'; status: number }
  | { action: 'failed'; error: string }

export interface ScheduleCheckOptions {
  /** The deployed build (the head of its manifest). */
  build: Pick<BuildInfo, 'id'> & Partial<BuildInfo>
  hookUrl: string | undefined
  store: StateStore
  log: Logger
  now?: number
}

/** Call the build hook if the deployed build's next release has passed and nobody has for it yet. */
export async function checkSchedule(options: ScheduleCheckOptions): Promise<ScheduleCheck> {
  const { build, store, log } = options
  const now = options.now ?? Date.now()
  const next = nextScheduledMs(build)
  if (next === undefined) return { action: 'none', reason: 'nothing scheduled' }
  if (now < next) return { action: 'none', reason: 'not due' }
  const fields = { build_id: build.id, next_release_at: build.next_release_at }
  // Once per build and release time (and again after HOOK_RETRY_SECONDS): the key is written once.
  const key = `release/hook/${build.id}-${Math.floor(next / 1000)}`
  await store.get(key)
  if (!(await store.create(key, { at: new Date(now).toISOString() }, HOOK_RETRY_SECONDS)))
    return { action: 'waiting', reason: options.hookUrl ? 'called already' : 'no build hook' }
  if (!options.hookUrl) {
    log('warn', 'release: due, but NETLIFY_BUILD_HOOK_URL is not set; it waits for the next deploy', fields)
    return { action: 'waiting', reason: 'no build hook' }
  }
  const url = new URL(options.hookUrl)
  url.searchParams.set('trigger_title', `Scheduled release or expiry due at ${build.next_release_at}`)
  try {
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'error',
      signal: AbortSignal.timeout(HOOK_TIMEOUT_MS),
    })
    await response.body?.cancel()
    if (!response.ok) throw new Error(`the build hook answered ${response.status}`)
    log('info', 'release: build hook called', { ...fields, status: response.status })
    return { action: 'called', status: response.status }
  } catch (error) {
    // Not recorded as called: the next run (a minute on) tries again.
    await store.delete(key)
    const message = error instanceof Error ? error.message : String(error)
    log('error', 'release: the build hook failed; trying again at the next run', { ...fields, error: message })
    return { action: 'failed', error: message }
  }
}
