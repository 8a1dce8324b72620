/**
 * The client address a limit is keyed by. Proxy headers are believed only
 * when the operator says a proxy in front sets them (TRUST_PROXY); otherwise
 * any caller could pick its own address and slip past the rate limiter.
 */
import type { H3Event } from 'h3'
import type { Settings } from '../../contract/settings.ts'

/**
 * - `none`: the socket's peer address.
 * - `netlify`: `x-nf-client-connection-ip`, which Netlify's edge sets on every request.
 * - `x-forwarded-for`: the rightmost entry, the one the single trusted proxy appended.
 */
export type TrustProxy = Settings['TRUST_PROXY']

/** A request header's value, however the runtime holds headers. */
export type HeaderOf = (name: string) => string | null | undefined

/** The client address from the peer and the request's headers; the one rule for the app and the Node fast path. */
export function clientAddress(peer: string | undefined, header: HeaderOf, trust: TrustProxy): string {
  const socket = peer ?? 'unknown'
  if (trust === 'netlify') return header('x-nf-client-connection-ip')?.trim() || socket
  if (trust === 'x-forwarded-for') {
    const hops = header('x-forwarded-for')
      ?.split(',')
      .map((h) => h.trim())
      .filter(Boolean)
    return hops?.at(-1) ?? socket
  }
  return socket
}

export function clientIp(event: H3Event, trust: TrustProxy): string {
  return clientAddress(event.req.ip, (name) => event.req.headers.get(name), trust)
}
