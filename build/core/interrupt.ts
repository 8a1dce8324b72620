/**
 * Interrupting work that runs without awaiting. The watch mode's full pass
 * runs on a worker thread (compiler/full-pass-worker.ts); at 30,000 items
 * one emitter (the search index) computes for seconds without giving the
 * worker's event loop a turn, so a cancel message would wait for its end,
 * and meanwhile the worker holds a core the edit being served needs. So the
 * worker arms a check that reads memory the dev server's thread writes, and
 * the long loops call `checkpoint()`, which throws {@link Interrupted} once
 * the check says so. Unarmed (a build, the dev server's own thread) a
 * checkpoint costs one call and never throws.
 *
 * @example
 * armInterrupt(() => Atomics.load(stop, 0) >= id)
 * try { emit() } catch (error) { if (!(error instanceof Interrupted)) throw error } finally { armInterrupt(undefined) }
 */
import { AppError } from '../../contract/errors.ts'

export class Interrupted extends AppError {
  readonly code = 'INTERRUPTED'
  constructor() {
    super('the work was interrupted: a newer edit makes it stale')
  }
}

const never = () => false
let interrupted: () => boolean = never

/** Make `checkpoint()` throw once `check` returns true (undefined: never again). One thread, one armed check. */
export function armInterrupt(check: (() => boolean) | undefined): void {
  interrupted = check ?? never
}

/** Where a long loop may stop: throws {@link Interrupted} once the armed check says so. */
export function checkpoint(): void {
  if (interrupted()) throw new Interrupted()
}
