/**
 * A state store that cannot be read or written (a full disk, a folder it may
 * not write, a read-only volume, an unreachable Netlify Blobs): one error
 * class, whatever the store, so every caller answers it the same way (503
 * with Retry-After for requests, one line for the CLI). Its message names the
 * store and the system's reason, never a path inside the store: record keys
 * are ids, and some ids are secrets (a refresh token's).
 *
 * oidc-provider catches what its adapter throws and answers 500 on its own;
 * `noticingStoreFaults` lets the caller of the provider learn that a store
 * fault was the cause: every fault made inside it is noted where it runs.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { EventEmitter } from 'node:events'
import { AppError } from '../../../contract/errors.ts'

export class StoreUnavailableError extends AppError {
  readonly code = 'STORE_UNAVAILABLE'

  constructor(
    /** Where the state lives (a StateStore's `location`, or a runtime-data file). */
    readonly store: string,
    /** The system's reason, without paths: `ENOSPC (no space left on device)`, `HTTP 500`. */
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`the state store (${store}) cannot be used: ${reason}`, options)
  }
}

const noticed = new AsyncLocalStorage<StoreUnavailableError[]>()

/**
 * What the stores tell the metrics (gateway/http/metrics.ts), which are off by default: `fault`
 * (a StoreUnavailableError made) and `reconnect` (a lost Redis connection tried again).
 */
export const storeSignals = new EventEmitter()
const counted = new WeakSet<StoreUnavailableError>()

/**
 * `error` from `store` as a StoreUnavailableError (noted where `noticingStoreFaults` runs) when
 * the system or the service failed; anything else (a usage error thrown by an update's change, an
 * invalid key, a bug) passes through unchanged.
 */
export function storeFault(store: string, error: unknown): unknown {
  if (error instanceof StoreUnavailableError) {
    noticed.getStore()?.push(error)
    // Made by the store itself (Redis's): counted once, where it is first seen.
    if (!counted.has(error)) {
      counted.add(error)
      storeSignals.emit('fault', error)
    }
    return error
  }
  if (!isSystemFailure(error)) return error
  const fault = new StoreUnavailableError(store, reasonOf(error), { cause: error })
  noticed.getStore()?.push(fault)
  storeSignals.emit('fault', fault)
  return fault
}

/** A file system's error (an errno code), or a service that failed, could not be reached or did not answer. */
function isSystemFailure(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof AppError) return false
  const { code } = error as NodeJS.ErrnoException
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true
  if (['BlobsInternalError', 'TimeoutError', 'AbortError'].includes(error.name)) return true
  return error instanceof TypeError && error.message === 'fetch failed'
}

/** What went wrong, without the path a system error's message carries. */
function reasonOf(error: unknown): string {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
    return `${code}${DESCRIPTIONS[code] ? ` (${DESCRIPTIONS[code]})` : ''}${syscall ? ` on ${syscall}` : ''}`
  const cause = (error as { cause?: unknown } | undefined)?.cause
  if (cause && cause !== error && typeof (cause as NodeJS.ErrnoException).code === 'string') return reasonOf(cause)
  return error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200)
}

const DESCRIPTIONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EIO: 'input/output error',
  ECONNREFUSED: 'connection refused',
  ETIMEDOUT: 'timed out',
  ENOTFOUND: 'host not found',
  ELOCKED: 'another writer held the lock too long',
  ECOMPROMISED: 'the lock was taken over while held',
}

/** The first StoreUnavailableError in `error` or its causes. */
export function storeFaultIn(error: unknown): StoreUnavailableError | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof StoreUnavailableError) return e
  return undefined
}

/** Run `work`; also say the first store fault made inside it, even one something caught and answered itself. */
export async function noticingStoreFaults<T>(
  work: () => Promise<T>,
): Promise<{ value: T; fault: StoreUnavailableError | undefined }> {
  const faults: StoreUnavailableError[] = []
  const value = await noticed.run(faults, work)
  return { value, fault: faults[0] }
}
