/**
 * The release scheduler (scheduler.ts) as a long-running gateway sets it up
 * (createGateway with `platform.schedule`, for `npm start`): it rebuilds the
 * project whose dist/ it serves (rebuild.ts), unless the clock is frozen
 * (BUILD_TIME) or the gateway serves some other dist/; then it only says,
 * once per build, when its next release is due and why it waits.
 */
import type { ArtifactStore } from '../artifacts.ts'
import type { Logger } from '../log.ts'
import { projectRebuild } from './rebuild.ts'
import { startScheduler, type Scheduler } from './scheduler.ts'

export interface ServeSchedulerOptions {
  store: ArtifactStore
  log: Logger
  /** BUILD_TIME is set: the build is as of that instant, and nothing is released on its own. */
  frozen: boolean
  /** The folder whose package.json's build script rebuilds (where `npm start` runs). */
  packageRoot: string
  /** The gateway's origin, which a rebuild writes into the records as `npm start`'s build did. */
  origin: () => string
  /** After a rebuilt dist/ is swapped in (the webhooks). */
  onSwap?: () => void
}

export async function startServeScheduler(options: ServeSchedulerOptions): Promise<Scheduler> {
  const { store, log } = options
  const project = options.frozen
    ? { reason: 'BUILD_TIME is set: the build is as of that instant, and nothing is released on its own' }
    : await projectRebuild(store.distDir, options.packageRoot, options.origin)
  if ('reason' in project) {
    const { reason } = project
    const arm = () => {
      const next = store.current()?.manifest.build.next_release_at
      if (next) log('warn', 'release: not rebuilt on its own', { next_release_at: next, reason })
    }
    arm()
    return { arm, close: () => undefined }
  }
  const scheduler = startScheduler({ store, log, rebuild: project.rebuild, onSwap: options.onSwap })
  scheduler.arm()
  return scheduler
}
