/** Method and Accept checks shared by the read-only routes. */
import type { H3Event } from 'h3'
import { problem } from './problem.ts'

export const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const

/** 405 with an Allow header unless the method is one of `allowed`. */
export function assertMethod(event: H3Event, allowed: readonly string[]): void {
  if (!allowed.includes(event.req.method)) {
    throw problem('method-not-allowed', {
      detail: `${event.req.method} is not supported here; use ${allowed.filter((m) => m !== 'OPTIONS').join(' or ')}.`,
      headers: { allow: allowed.join(', ') },
    })
  }
}

/**
 * 406 when the Accept header rules out `type` (and every wildcard that covers it).
 * A missing or empty Accept accepts anything.
 */
export function assertAccepts(event: H3Event, type: string): void {
  if (!accepts(event.req.headers.get('accept'), type))
    throw problem('not-acceptable', { detail: `This resource is available as ${type} only.` })
}

/** Whether an Accept header value admits `type`; a missing or empty one admits anything. */
export function accepts(accept: string | null | undefined, type: string): boolean {
  if (!accept?.trim()) return true
  const [major] = type.split('/')
  return accept.split(',').some((range) => {
    const [media = '', ...params] = range.trim().toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    if (q && Number(q.slice(2)) === 0) return false
    const m = media.trim()
    return (
      m === '*/*' ||
      m === `${major}/*` ||
      m === type ||
      (type === 'application/json' && m === 'application/problem+json')
    )
  })
}
