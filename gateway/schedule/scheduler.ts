/**
 * Publishing on time in a long-running gateway (`npm start`): the build states
 * its next release or expiry (`next_release_at` in the manifest); at that
 * moment the gateway builds again (rebuild.ts: the project's own `npm run
 * build`, which renders only what changed) and swaps the new dist/ in, with no
 * restart, then waits for the next one. Its webhooks go out as after any swap.
 *
 * A build that fails (content errors committed meanwhile) is tried again with
 * backoff, and the previous build stays served. With BUILD_TIME set, the
 * clock is frozen and nothing is released on its own.
 *
 * @example const scheduler = startScheduler({ store, log, rebuild, onSwap: () => webhooks.kick() }); scheduler.arm()
 */
import type { ArtifactStore } from '../artifacts.ts'
import type { Logger } from '../log.ts'
import { nextScheduledMs } from '../../contract/schedule.ts'

/** setTimeout's longest delay (about 24.8 days); a later release is waited for in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1
/** After the release time, so the build's clock (whole seconds) is past it. */
const MARGIN_MS = 20
/** Waits between failed rebuilds: 10 s doubling to 10 minutes. */
const RETRY_FIRST_MS = 10_000
const RETRY_MAX_MS = 600_000

export interface SchedulerOptions {
  store: ArtifactStore
  log: Logger
  /** Build dist/ again (rejects with the reason when the build fails). */
  rebuild: () => Promise<void>
  /** After a rebuilt dist/ is swapped in (webhooks). */
  onSwap?: () => void
  /** The clock, in milliseconds. */
  now?: () => number
}

export interface Scheduler {
  /** Wait for the served build's next release (again after every reload). */
  arm(): void
  close(): void
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const now = options.now ?? Date.now
  const { store, log } = options
  let timer: NodeJS.Timeout | undefined
  let closed = false
  let running = false
  let failures = 0

  const wait = (at: number, run: () => void) => {
    clearTimeout(timer)
    const delay = Math.max(0, at - now())
    timer = setTimeout(() => (now() >= at ? run() : wait(at, run)), Math.min(delay, MAX_DELAY_MS))
    // The server keeps the process alive; a timer alone must not.
    timer.unref()
  }

  const release = async (due: number) => {
    if (closed || running) return
    running = true
    const at = new Date(due).toISOString()
    try {
      log('info', 'release: building', { release_at: at })
      await options.rebuild()
      const snapshot = await store.reload()
      failures = 0
      log('info', 'release: serving', {
        release_at: at,
        build_id: snapshot.id,
        next_release_at: snapshot.manifest.build.next_release_at ?? null,
      })
      options.onSwap?.()
      const next = nextScheduledMs(snapshot.manifest.build)
      // A build that still names the same passed time did not move on (a clock behind, say): wait, do not spin.
      if (next !== undefined && next <= due) throw new Error(`the new build's next release is still ${at}`)
      arm()
    } catch (error) {
      failures++
      const retry = Math.min(RETRY_FIRST_MS * 2 ** (failures - 1), RETRY_MAX_MS)
      log('error', 'release: the build failed; still serving the previous build', {
        release_at: at,
        error: error instanceof Error ? error.message : String(error),
        retry_in_s: retry / 1000,
      })
      if (!closed) wait(now() + retry, () => void release(due))
    } finally {
      running = false
    }
  }

  const arm = () => {
    if (closed) return
    clearTimeout(timer)
    const next = nextScheduledMs(store.current()?.manifest.build ?? {})
    if (next === undefined) return
    log('info', 'release: waiting', { next_release_at: new Date(next).toISOString() })
    wait(next + MARGIN_MS, () => void release(next))
  }

  return {
    arm,
    close: () => {
      closed = true
      clearTimeout(timer)
    },
  }
}
