/**
 * A deadline per request: a handler that has not produced its answer after
 * `ms` milliseconds yields a 503 `/problems/timeout` instead of holding the
 * connection. The handler's work is told to stop through {@link deadlineOf}
 * (an AbortSignal) so it can give up early.
 *
 * A handler that answers synchronously (every pre-rendered read) cannot
 * overrun — JavaScript cannot interrupt it anyway — so it costs no timer.
 */
import type { H3Event, Middleware } from 'h3'
import { problem } from './problem.ts'

const CONTROLLER = 'deadlineController'

function controllerOf(event: H3Event): AbortController {
  let controller = event.context[CONTROLLER] as AbortController | undefined
  if (!controller) {
    controller = new AbortController()
    event.context[CONTROLLER] = controller
  }
  return controller
}

export function requestTimeout(ms: number): Middleware {
  return (event, next) => {
    const result = next()
    if (typeof (result as Promise<unknown> | undefined)?.then !== 'function') return result
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = problem('timeout', {
          detail: `The request took longer than ${ms} ms and was stopped; retry later.`,
          headers: { 'retry-after': '1' },
        })
        controllerOf(event).abort(error)
        reject(error)
      }, ms)
    })
    return Promise.race([result, expired]).finally(() => clearTimeout(timer))
  }
}

/** The request's deadline signal (aborted when the gateway's timeout fires). */
export function deadlineOf(event: H3Event): AbortSignal {
  return controllerOf(event).signal
}
