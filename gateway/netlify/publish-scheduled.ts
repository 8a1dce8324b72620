/**
 * `publish-scheduled`: a scheduled function (every minute, netlify.toml),
 * which Netlify runs on the published deploy only. When the deployed build's
 * next release or expiry has passed, it calls the site's build hook
 * (NETLIFY_BUILD_HOOK_URL) so that a new build publishes it: a release goes
 * out at most a minute late, plus the time Netlify takes to build and deploy.
 * It reads the head of the build's manifest, nothing else of dist/.
 * See gateway/schedule/hook.ts.
 */
import { resolve } from 'node:path'
import { openStateStore, storeSettingsFrom } from '../auth/store/open-store.ts'
import { createLogger } from '../log.ts'
import { checkSchedule } from '../schedule/hook.ts'
import { readManifestHead } from '../schedule/manifest-head.ts'
import { report } from '../../contract/cli.ts'
import { readSettings } from '../../contract/settings.ts'
import { findDist } from './dist-dir.ts'

export default async function handler(): Promise<Response> {
  try {
    const settings = readSettings(process.env, 'netlify')
    // Written at once: the instance may be frozen as soon as the answer is sent.
    const log = createLogger(settings.LOG_LEVEL, (line) => console.log(line))
    const root = process.cwd()
    const head = await readManifestHead(
      await findDist(resolve(root, settings.DIST_DIR), settings.LAMBDA_TASK_ROOT ?? root),
    )
    if (!head) {
      log('error', 'release: the deployed build has no readable manifest')
    } else {
      await checkSchedule({
        build: head.build,
        hookUrl: settings.NETLIFY_BUILD_HOOK_URL,
        store: openStateStore(storeSettingsFrom(settings)),
        log,
      })
    }
  } catch (error) {
    report(error)
  }
  return new Response(null, { status: 204 })
}
