/**
 * A state store fault on the browser's steps of signing in (the
 * authorization request, the sign-in and consent pages): the person gets a
 * page saying what happened and what to do, with 503 and Retry-After, as
 * every other route gets the 503 problem (http/store-faults.ts); nothing
 * about the fault is shown but that it is the server's.
 */
import type { EventHandler, H3Event } from 'h3'
import { logStoreFault, STORE_RETRY_AFTER_SECONDS } from '../../http/store-faults.ts'
import type { Logger } from '../../log.ts'
import { storeFaultIn, type StoreUnavailableError } from '../store/store-errors.ts'
import { htmlResponse } from './interaction/context.ts'
import { errorPage } from './interaction/pages.ts'

/** The 503 page for a store fault, logged. */
export function storeFaultPage(event: H3Event, fault: StoreUnavailableError, log: Logger): Response {
  logStoreFault(log, event, fault)
  return htmlResponse(
    event,
    503,
    errorPage(
      'Sign-in is unavailable right now',
      'This server cannot save your sign-in at the moment: the problem is on our side, not yours. Wait a minute, then go back to the application and connect again.',
    ),
    { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) },
  )
}

/** `handler`, with a store fault it throws answered by the page. */
export function withStoreFaultPage(handler: EventHandler, log: Logger): EventHandler {
  return async (event) => {
    try {
      return await handler(event)
    } catch (error) {
      const fault = storeFaultIn(error)
      if (!fault) throw error
      return storeFaultPage(event, fault, log)
    }
  }
}
