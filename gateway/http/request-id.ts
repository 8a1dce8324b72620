/** A request id per request: the caller's X-Request-Id when it is sane, else a new one. */
import { randomUUID } from 'node:crypto'
import type { H3Event } from 'h3'

const SANE_ID = /^[A-Za-z0-9._:-]{1,64}$/

export function assignRequestId(event: H3Event): string {
  const id = requestIdFrom(event.req.headers.get('x-request-id'))
  event.context.requestId = id
  return id
}

/** The caller's id when it is sane, else a new one. */
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && SANE_ID.test(incoming) ? incoming : randomUUID()
}

export function requestIdOf(event: H3Event): string {
  return (event.context.requestId as string | undefined) ?? assignRequestId(event)
}
