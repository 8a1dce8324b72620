/**
 * The release scheduler of `npm start` (scheduler.ts) as the command sets it
 * up: it rebuilds the project whose dist/ it serves (rebuild.ts), unless the
 * clock is frozen (BUILD_TIME) or the gateway serves some other dist/; then it
 * only says, once per build, when its next release is due and why it waits.
 */
import type { ArtifactStore } from '../artifacts.ts'
import type { Logger } from '../log.ts'
import { readSettings } from '../../contract/settings.ts'
import { projectRebuild } from './rebuild.ts'
import { startReleases, type Releases } from './scheduler.ts'

export async function startServeReleases(options: {
  store: ArtifactStore
  log: Logger
  distDir: string
  onSwap?: () => void
}): Promise<Releases> {
  const { store, log } = options
  const frozen = readSettings(process.env, 'start').BUILD_TIME !== undefined
  const project = frozen
    ? { reason: 'BUILD_TIME is set: the build is as of that instant, and nothing is released on its own' }
    : await projectRebuild(options.distDir, process.cwd())
  if ('reason' in project) {
    const { reason } = project
    const arm = () => {
      const next = store.current()?.manifest.build.next_release_at
      if (next) log('warn', 'release: not rebuilt on its own', { next_release_at: next, reason })
    }
    arm()
    return { arm, close: () => undefined }
  }
  const releases = startReleases({ store, log, rebuild: project.rebuild, onSwap: options.onSwap })
  releases.arm()
  return releases
}
