/**
 * The provider's endpoints mounted in the gateway: each path of the table in
 * paths.ts, its methods checked first (405 problems like every other route),
 * the body read within the endpoint's cap, then the provider answers through
 * the bridge. OAuth errors stay OAuth JSON, as RFC 6749 and 7591 say; the
 * gateway adds its own headers (request id, no sniffing, content policy).
 */
import { defineHandler, type H3, type H3Event } from 'h3'
import { clientIp } from '../../http/client-ip.ts'
import { assertMethod } from '../../http/negotiate.ts'
import { requestIdOf } from '../../http/request-id.ts'
import type { Auth } from '../auth.ts'
import type { EmbeddedIssuer } from './embedded-issuer.ts'
import { REGISTRATION_PATH } from '../../../build/contract/public-paths.ts'
import { PROVIDER_ROUTES } from './paths.ts'

/** Endpoints any browser page may call (no cookies involved): client registration. */
const OPEN_CORS = new Set<string>([REGISTRATION_PATH])

export function providerRoutes(auth: Auth, issuer: EmbeddedIssuer): (app: H3) => void {
  return (app) => {
    for (const route of PROVIDER_ROUTES) {
      app.all(route.path, defineHandler(async (event) => {
        assertMethod(event, route.methods)
        const body = event.req.method === 'GET' || event.req.method === 'HEAD' ? undefined : new Uint8Array(await event.req.arrayBuffer())
        const answer = await issuer.handle(event.req, clientIp(event, auth.trustProxy), body)
        return withGatewayHeaders(event, answer, OPEN_CORS.has(route.path))
      }))
    }
  }
}

function withGatewayHeaders(event: H3Event, answer: Response, openCors: boolean): Response {
  const headers = new Headers(answer.headers)
  headers.set('x-request-id', requestIdOf(event))
  headers.set('x-content-type-options', 'nosniff')
  headers.set('referrer-policy', 'no-referrer')
  if (!headers.has('content-security-policy')) headers.set('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
  if (openCors) headers.set('access-control-allow-origin', '*')
  // A 401 names how to authenticate (RFC 9110 §15.5.2): client authentication is HTTP Basic (RFC 6749 §2.3.1).
  if (answer.status === 401 && !headers.has('www-authenticate')) headers.set('www-authenticate', 'Basic realm="oauth", charset="UTF-8"')
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers })
}
