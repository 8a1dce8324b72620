/** The method and Accept checks of the routes. */
import type { H3Event } from 'h3'
import { allowOf } from '../../contract/routes/index.ts'
import type { Route } from '../../contract/routes/route.ts'
import { problem } from './problem.ts'

/** 405 with an Allow header unless the method is one the route answers (its `methodNote` says why, where it has one). */
export function assertMethod(event: H3Event, route: Pick<Route, 'methods' | 'methodNote' | 'path'>): void {
  const { method } = event.req
  if ((route.methods as readonly string[]).includes(method)) return
  throw problem('method-not-allowed', {
    detail: route.methodNote
      ? `${method} is not supported on ${route.path}: ${route.methodNote}.`
      : `${method} is not supported here; use ${route.methods.join(' or ')}.`,
    headers: { allow: allowOf(route) },
  })
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
