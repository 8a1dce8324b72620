/**
 * A state store that cannot be used (full, read-only, not ours to write,
 * unreachable) answered plainly on every route: a 503 `/problems/unavailable`
 * with Retry-After, never a 500, and one log line naming the store and the
 * reason (never a stack trace: h3 prints one for any error it sees unhandled,
 * so the fault is turned into a problem before it gets there). The browser's
 * sign-in pages answer with a page instead (auth/issuer/store-fault-page.ts).
 */
import type { H3Event, HTTPError, Middleware } from 'h3'
import { storeFaultIn, type StoreUnavailableError } from '../auth/store/store-errors.ts'
import type { Logger } from '../log.ts'
import { unavailable } from './problem.ts'
import { requestIdOf } from './request-id.ts'

/** How long a client waits before trying again: an operator has a disk to free or a service to wait for. */
export const STORE_RETRY_AFTER_SECONDS = 30

export const STORE_FAULT_DETAIL =
  'The server cannot store what this request needs right now (its storage is full or unavailable); retry later.'

/** Log the fault once for this request: which store, and why. */
export function logStoreFault(log: Logger, event: H3Event, fault: StoreUnavailableError): void {
  log('error', 'state store unavailable', {
    request_id: requestIdOf(event),
    path: event.url.pathname,
    store: fault.store,
    error: fault.reason,
  })
}

/** The 503 problem for a store fault, logged. */
export function storeUnavailable(event: H3Event, fault: StoreUnavailableError, log: Logger): HTTPError {
  logStoreFault(log, event, fault)
  return unavailable(STORE_FAULT_DETAIL, STORE_RETRY_AFTER_SECONDS, { logged: true })
}

/** Every route's store faults, wherever they were thrown below, as the 503 problem. */
export function storeFaultAnswers(log: Logger): Middleware {
  const answer = (event: H3Event, error: unknown) => {
    const fault = storeFaultIn(error)
    throw fault ? storeUnavailable(event, fault, log) : error
  }
  return (event, next) => {
    let result: unknown
    try {
      result = next()
    } catch (error) {
      return answer(event, error)
    }
    if (typeof (result as Promise<unknown> | undefined)?.then !== 'function') return result
    return (result as Promise<unknown>).catch((error: unknown) => answer(event, error))
  }
}
