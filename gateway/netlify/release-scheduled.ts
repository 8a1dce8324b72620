/**
 * `release-scheduled`: a scheduled function (every minute, netlify.toml),
 * which Netlify runs on the published deploy only. When the deployed build's
 * next release or expiry has passed, it calls the site's build hook
 * (NETLIFY_BUILD_HOOK_URL) so that a new build publishes it: a release goes
 * out at most a minute late, plus the time Netlify takes to build and deploy.
 * See gateway/release/hook.ts.
 */
import { openStateStore, storeSettingsFrom } from '../auth/store/open-store.ts'
import { readConfig } from '../config.ts'
import { createLogger } from '../log.ts'
import { checkRelease } from '../release/hook.ts'
import { readManifestHead } from '../release/manifest-head.ts'
import { report } from '../../contract/cli.ts'
import { readSettings } from '../../contract/settings.ts'
import { findDist } from './dist-dir.ts'

export default async function handler(): Promise<Response> {
  try {
    const settings = readSettings(process.env, 'netlify')
    const config = readConfig(process.env, 'netlify')
    const log = createLogger(config.logLevel)
    const head = await readManifestHead(await findDist(config.distDir))
    if (!head) {
      log('error', 'release: the deployed build has no readable manifest')
    } else {
      await checkRelease({
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
