/**
 * The client address a limit is keyed by. Proxy headers are believed only
 * when the operator says a proxy in front sets them (TRUST_PROXY); otherwise
 * any caller could pick its own address and slip past the rate limiter.
 */
import type { H3Event } from 'h3'

/**
 * - `none`: the socket's peer address.
 * - `netlify`: `x-nf-client-connection-ip`, which Netlify's edge sets on every request.
 * - `x-forwarded-for`: the rightmost entry, the one the single trusted proxy appended.
 */
export type TrustProxy = 'none' | 'netlify' | 'x-forwarded-for'

export function clientIp(event: H3Event, trust: TrustProxy): string {
  const peer = event.req.ip ?? 'unknown'
  if (trust === 'netlify') return event.req.headers.get('x-nf-client-connection-ip')?.trim() || peer
  if (trust === 'x-forwarded-for') {
    const hops = event.req.headers
      .get('x-forwarded-for')
      ?.split(',')
      .map((h) => h.trim())
      .filter(Boolean)
    return hops?.at(-1) ?? peer
  }
  return peer
}
