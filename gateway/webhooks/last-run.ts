/**
 * What the last run of a Netlify webhook function did, kept in the state
 * store (`webhooks/last-run`, overwritten by each run): which function, for
 * which deploy event, and what came of it — ignored (a deploy preview, a
 * branch deploy), what was queued and sent, or why it failed. A background function answers
 * Netlify at once and works on, so this record, written when it has
 * finished, is where its end shows: `npm run keys -- webhook list` prints it,
 * and the emulation test waits for it.
 */
import type { StateStore } from '../auth/store/state-store.ts'
import type { PassOutcome } from './service.ts'

const LAST_RUN_KEY = 'webhooks/last-run'

export interface RunRecord {
  /** The function: `deploy-succeeded` (after a deploy) or `scheduled`. */
  trigger: 'deploy-succeeded' | 'scheduled'
  /** The deploy event's deploy id and context, for deploy-succeeded. */
  deploy_id: string | null
  context: string | null
  /** Why nothing was done, or null when it ran. */
  ignored: string | null
  /** The fan-out's result (started, nothing-new, queued, partial, busy, …), when it looked at the build. */
  dispatch: string | null
  delivered: number
  failed: number
  waiting: number
  /** Why the run failed (its error's message), or null. */
  error: string | null
  finished_at: string
}

export function runRecord(
  trigger: Pick<RunRecord, 'trigger' | 'deploy_id' | 'context' | 'ignored'>,
  outcome: PassOutcome | undefined,
  at: Date,
  error?: unknown,
): RunRecord {
  return {
    ...trigger,
    dispatch: outcome?.dispatch?.kind ?? null,
    delivered: outcome?.sent.delivered ?? 0,
    failed: outcome?.sent.failed ?? 0,
    waiting: outcome?.sent.waiting ?? 0,
    error: error === undefined ? null : String((error as Error).message ?? error).slice(0, 500),
    finished_at: at.toISOString(),
  }
}

export function writeLastRun(store: StateStore, record: RunRecord): Promise<void> {
  return store.set(LAST_RUN_KEY, record)
}

export function readLastRun(store: StateStore): Promise<RunRecord | undefined> {
  return store.get<RunRecord>(LAST_RUN_KEY)
}

/** One line for the CLI. */
export function describeRun(run: RunRecord): string {
  const which =
    run.trigger === 'deploy-succeeded'
      ? `deploy-succeeded (deploy ${run.deploy_id ?? '?'}, ${run.context ?? 'no context'})`
      : 'webhooks-scheduled'
  const what =
    run.ignored ??
    (run.error === null
      ? `fan-out ${run.dispatch ?? 'not looked at'}; ${run.delivered} delivered, ${run.failed} failed, ${run.waiting} waiting`
      : `failed: ${run.error}`)
  return `last run on Netlify: ${which} at ${run.finished_at}: ${what}`
}
