/** The one JSON line logged per request, by the app and by the fast path alike. */
import type { Logger } from '../log.ts'

export function logRequest(
  log: Logger,
  requestId: string,
  method: string,
  path: string,
  status: number,
  startedAt: number | undefined,
): void {
  log('info', 'request', {
    request_id: requestId,
    method,
    path,
    status,
    duration_ms: startedAt === undefined ? undefined : Math.round((performance.now() - startedAt) * 100) / 100,
  })
}
