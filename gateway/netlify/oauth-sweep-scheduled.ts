/**
 * `oauth-sweep-scheduled`: a scheduled function (netlify.toml sets how
 * often), which Netlify runs on the published deploy only. Netlify Blobs
 * keep a record until it is deleted, and function instances do not live
 * long enough to sweep, so this removes the expired authorization state —
 * interactions, codes, sessions, grants, unused registered clients,
 * failed-authentication windows — within a scheduled function's time; a
 * sweep that runs out of it resumes where it stopped on the next run.
 */
import { report } from '../../contract/cli.ts'
import { readSettings } from '../../contract/settings.ts'
import { openStateStore, storeSettingsFrom } from '../auth/store/open-store.ts'
import { createLogger } from '../log.ts'

/** A scheduled function has 30 seconds: the sweep stops reading records after 20. */
const BUDGET_MS = 20_000

export default async function handler(): Promise<Response> {
  try {
    const settings = readSettings(process.env, 'netlify')
    // Written at once: the instance may be frozen as soon as the answer is sent.
    const log = createLogger(settings.LOG_LEVEL, (line) => console.log(line))
    const store = openStateStore(storeSettingsFrom(settings))
    const started = performance.now()
    const removed = await store.sweep({ budgetMs: BUDGET_MS })
    log('info', 'expired authorization state removed', {
      removed,
      store: store.location,
      ms: Math.round(performance.now() - started),
    })
  } catch (error) {
    report(error)
  }
  return new Response(null, { status: 204 })
}
