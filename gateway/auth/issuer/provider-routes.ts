/**
 * The handlers of the provider's routes of the table (contract/routes/oauth.ts;
 * their methods, body limits and budgets are checked where they are mounted):
 * the provider answers through the bridge. OAuth errors stay OAuth JSON, as
 * RFC 6749 and 7591 say; the gateway adds its own headers (request id, no
 * sniffing, content policy).
 *
 * Before the provider: parameters longer than contract/oauth-params.ts
 * allows are an `invalid_request` (the OpenAPI document states the bounds).
 * Around it, on the endpoints that authenticate clients (token, revocation):
 * a wrong client secret counts as a failed authentication (failed-auth.ts).
 * A JWT access token presented for revocation is revoked by the gateway,
 * once the provider has authenticated the client (revoke-jwt.ts).
 * What anonymous callers make the server keep is held under its ceilings
 * (ceilings.ts): a registration, an authorization request started. A token
 * obtained keeps a registered client (client-lifetime.ts). A state store the
 * provider could not use is a 503 (a page on the browser's authorization
 * endpoint), not the provider's own 500.
 */
import { defineHandler, type EventHandler, type H3Event } from 'h3'
import { decodeJwt } from 'jose'
import { clientIp } from '../../http/client-ip.ts'
import { problem } from '../../http/problem.ts'
import { requestIdOf } from '../../http/request-id.ts'
import type { Auth } from '../auth.ts'
import type { Subject } from '../failed-auth.ts'
import type { CeilingName } from './ceilings.ts'
import type { EmbeddedIssuer } from './embedded-issuer.ts'
import {
  AUTHORIZE_PATH,
  REGISTRATION_PATH,
  REVOCATION_PATH,
  TOKEN_PATH,
  USERINFO_PATH,
} from '../../../contract/public-paths.ts'
import { MAX_ERROR_DESCRIPTION_LENGTH, oversizedParameter } from '../../../contract/oauth-params.ts'
import { CACHE, baseHeaders } from '../../../contract/headers.ts'
import { errorPage, PAGE_CSP } from './interaction/pages.ts'
import { presentedJwt, revokeJwt } from './revoke-jwt.ts'
import { storeFaultPage } from './store-fault-page.ts'
import { storeUnavailable } from '../../http/store-faults.ts'
import { noticingStoreFaults } from '../store/store-errors.ts'

/** Endpoints any browser page may call (no cookies involved): client registration. */
const OPEN_CORS = new Set<string>([REGISTRATION_PATH])
/** Endpoints where a client authenticates with its secret. */
const CLIENT_AUTH = new Set<string>([TOKEN_PATH, REVOCATION_PATH])

export type ProviderRouteId = 'authorize' | 'authorizeResume' | 'token' | 'register' | 'revoke' | 'userinfo'

/** The handlers of the provider's routes, by route id. */
export function providerHandlers(auth: Auth, issuer: EmbeddedIssuer): Record<ProviderRouteId, EventHandler> {
  const handler = (path: string, ceiling?: CeilingName) =>
    defineHandler(async (event) => {
      const body =
        event.req.method === 'GET' || event.req.method === 'HEAD'
          ? undefined
          : new Uint8Array(await event.req.arrayBuffer())
      const params = parametersOf(event, body)
      const oversized = oversizedParameter(params)
      if (oversized) return tooLong(event, path, `${oversized.name} must be at most ${oversized.limit} characters`)
      const subject = CLIENT_AUTH.has(path)
        ? { address: clientIp(event, auth.trustProxy), identifier: clientIdOf(event, params) }
        : undefined
      // An address past its limit is refused before the secret is compared (no store access: failed-auth.ts).
      const verdict = subject && (await auth.failures.check('client-secret', subject))
      if (verdict && !verdict.ok) throw problem('rate-limited', { detail: verdict.detail, headers: verdict.headers })
      if (ceiling) await issuer.ceilings.admit(ceiling)
      // A JWT access token to revoke: the provider authenticates the client on a stand-in (revoke-jwt.ts).
      const jwt = path === REVOCATION_PATH ? presentedJwt(event.req, body) : undefined
      // The provider answers a failed store with a 500 of its own: the fault it met decides the answer instead.
      const { value: answer, fault } = await noticingStoreFaults(() =>
        issuer.handle(event.req, clientIp(event, auth.trustProxy), jwt?.forwarded ?? body),
      )
      if (fault) {
        if (path === AUTHORIZE_PATH) return storeFaultPage(event, fault, auth.log)
        throw storeUnavailable(event, fault, auth.log)
      }
      if (subject && answer.status === 401) await countFailure(auth, subject)
      if (jwt && answer.status === 200) {
        const refused = await revokeJwt(issuer.revocations, jwt, event.req, subject!.identifier)
        if (refused) return withGatewayHeaders(event, refused, false)
      }
      if (path === TOKEN_PATH && answer.status === 200) await keepClient(auth, issuer, subject!.identifier)
      return withGatewayHeaders(event, await cutDescription(answer), OPEN_CORS.has(path))
    })
  return {
    authorize: handler(AUTHORIZE_PATH, 'authorizations'),
    // Where the browser resumes the authorization request after our pages (already counted).
    authorizeResume: handler(AUTHORIZE_PATH),
    token: handler(TOKEN_PATH),
    register: handler(REGISTRATION_PATH, 'clients'),
    revoke: handler(REVOCATION_PATH),
    userinfo: handler(USERINFO_PATH),
  }
}

/** The client obtained a token: keep its registration. The token is issued either way, so a store error is only logged. */
async function keepClient(auth: Auth, issuer: EmbeddedIssuer, clientId: string): Promise<void> {
  await issuer
    .clientUsed(clientId)
    .catch((error: Error) => auth.log('warn', 'could not keep a registered client', { error: error.message }))
}

async function countFailure(auth: Auth, subject: Subject): Promise<void> {
  const verdict = await auth.failures.failed('client-secret', subject)
  if (verdict.ok) return
  auth.log('warn', 'client authentication failures throttled', { by: verdict.by })
  throw problem('rate-limited', { detail: verdict.detail, headers: verdict.headers })
}

/** The query and, for a form body, its fields: what the provider will read. */
function parametersOf(event: H3Event, body: Uint8Array | undefined): URLSearchParams {
  const params = new URLSearchParams(event.url.search)
  const type = (event.req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (body && type === 'application/x-www-form-urlencoded') {
    for (const [name, value] of new URLSearchParams(Buffer.from(body).toString('utf8'))) params.append(name, value)
  }
  return params
}

/**
 * The client that tries to authenticate: HTTP Basic (RFC 6749 §2.3.1, URL-encoded), the form's client_id, or
 * the subject of a private_key_jwt assertion sent without one (RFC 7523 §3; read unverified, which the provider verifies).
 */
function clientIdOf(event: H3Event, params: URLSearchParams): string {
  const basic = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(event.req.headers.get('authorization') ?? '')
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    try {
      return decodeURIComponent((colon < 0 ? decoded : decoded.slice(0, colon)).replace(/\+/g, ' '))
    } catch {
      return decoded.slice(0, colon < 0 ? undefined : colon)
    }
  }
  return params.get('client_id') ?? assertionSubject(params.get('client_assertion')) ?? ''
}

function assertionSubject(assertion: string | null): string | undefined {
  if (!assertion) return undefined
  try {
    const { sub } = decodeJwt(assertion)
    return typeof sub === 'string' ? sub : undefined
  } catch {
    return undefined
  }
}

/** 400 for an over-long parameter: a page on the browser's authorization endpoint, OAuth JSON elsewhere. */
function tooLong(event: H3Event, path: string, description: string): Response {
  if (path.startsWith(AUTHORIZE_PATH)) {
    const headers = baseHeaders(requestIdOf(event), 'text/html; charset=utf-8', CACHE.none)
    headers.delete('access-control-allow-origin')
    headers.set('content-security-policy', PAGE_CSP)
    return new Response(
      errorPage('Sign-in cannot continue', 'The application sent a request this server cannot accept.', {
        error: 'invalid_request',
        error_description: description,
      }),
      { status: 400, headers },
    )
  }
  const answer = Response.json(
    { error: 'invalid_request', error_description: description },
    { status: 400, headers: { 'cache-control': 'no-store' } },
  )
  return withGatewayHeaders(event, answer, path === REGISTRATION_PATH)
}

/** The provider's OAuth error, its error_description cut to what openapi.json states (it may quote the request). */
async function cutDescription(answer: Response): Promise<Response> {
  if (answer.status < 400 || !answer.headers.get('content-type')?.startsWith('application/json')) return answer
  const text = await answer.text()
  let body: { error_description?: unknown }
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    return new Response(text, answer)
  }
  if (typeof body.error_description !== 'string' || body.error_description.length <= MAX_ERROR_DESCRIPTION_LENGTH)
    return new Response(text, answer)
  body.error_description = `${body.error_description.slice(0, MAX_ERROR_DESCRIPTION_LENGTH - 1)}…`
  const headers = new Headers(answer.headers)
  headers.delete('content-length')
  return new Response(JSON.stringify(body), { status: answer.status, statusText: answer.statusText, headers })
}

function withGatewayHeaders(event: H3Event, answer: Response, openCors: boolean): Response {
  const headers = new Headers(answer.headers)
  headers.set('x-request-id', requestIdOf(event))
  headers.set('x-content-type-options', 'nosniff')
  headers.set('referrer-policy', 'no-referrer')
  if (!headers.has('content-security-policy'))
    headers.set('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
  // Answers about credentials are never stored (RFC 6749 §5.1); the provider leaves it out on some errors.
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store')
  if (openCors) headers.set('access-control-allow-origin', '*')
  // A 401 names how to authenticate (RFC 9110 §15.5.2): client authentication is HTTP Basic (RFC 6749 §2.3.1).
  if (answer.status === 401 && !headers.has('www-authenticate'))
    headers.set('www-authenticate', 'Basic realm="oauth", charset="UTF-8"')
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers })
}
