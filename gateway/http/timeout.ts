/**
 * A deadline per request: a handler that has not produced its answer after
 * `ms` milliseconds yields a 503 `/problems/timeout` instead of holding the
 * connection. The handler's work is told to stop through
 * `event.context.deadline` (an AbortSignal) so it can give up early.
 */
import type { H3Event, Middleware } from 'h3'
import { problem } from './problem.ts'

export function requestTimeout(ms: number): Middleware {
  return async (event, next) => {
    const controller = new AbortController()
    event.context.deadline = controller.signal
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = problem('timeout', {
          detail: `The request took longer than ${ms} ms and was stopped; retry later.`,
          headers: { 'retry-after': '1' },
        })
        controller.abort(error)
        reject(error)
      }, ms)
    })
    try {
      return await Promise.race([next(), expired])
    } finally {
      clearTimeout(timer)
    }
  }
}

/** The request's deadline signal (aborted when the gateway's timeout fires). */
export function deadlineOf(event: H3Event): AbortSignal | undefined {
  return event.context.deadline as AbortSignal | undefined
}
