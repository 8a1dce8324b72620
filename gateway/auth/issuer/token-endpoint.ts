/**
 * POST /oauth/token: the built-in issuer's token endpoint. Form-encoded
 * client_credentials requests in, an RFC 9068 JWT access token out; every
 * refusal is an RFC 6749 §5.2 JSON error, never stored by caches.
 */
import { defineHandler, type H3Event } from 'h3'
import type { Logger } from '../../log.ts'
import { baseHeaders, CACHE, JSON_TYPE } from '../../../build/contract/headers.ts'
import { assertMethod } from '../../http/negotiate.ts'
import { requestIdOf } from '../../http/request-id.ts'
import type { FileCache } from '../file-cache.ts'
import { mintAccessToken } from './access-token.ts'
import type { ClientsFile } from './clients-file.ts'
import { readForm } from './form-body.ts'
import type { SigningKey } from './signing-key.ts'
import { decideTokenRequest, type OAuthError, type Resources } from './token-request.ts'

export interface TokenEndpointOptions {
  issuer: () => string
  resources: () => Resources
  clients: FileCache<ClientsFile>
  key: SigningKey
  ttlSeconds: number
  log: Logger
}

export function tokenEndpoint(options: TokenEndpointOptions) {
  return defineHandler(async (event) => {
    assertMethod(event, ['POST', 'OPTIONS'])
    const form = await readForm(event.req)
    if (!form.ok) return oauthError(event, { status: form.status, error: 'invalid_request', description: form.description })
    const { clients } = await options.clients.get()
    const decision = decideTokenRequest(form.params, event.req.headers.get('authorization'), clients, options.resources())
    if (!decision.ok) {
      options.log('info', 'token refused', { request_id: requestIdOf(event), error: decision.error.error })
      return oauthError(event, decision.error)
    }
    const { grant } = decision
    const token = await mintAccessToken(options.key, {
      issuer: options.issuer(),
      clientId: grant.clientId,
      audience: grant.audience,
      scopes: grant.scopes,
      ttlSeconds: options.ttlSeconds,
    })
    options.log('info', 'token issued', { request_id: requestIdOf(event), client_id: grant.clientId, scope: grant.scopes.join(' ') })
    return json(event, 200, { access_token: token, token_type: 'Bearer', expires_in: options.ttlSeconds, scope: grant.scopes.join(' ') })
  })
}

function oauthError(event: H3Event, error: OAuthError): Response {
  const response = json(event, error.status, { error: error.error, error_description: error.description })
  // A 401 needs a challenge (RFC 9110 §15.5.2); Basic is the header method we take.
  if (error.status === 401) response.headers.set('www-authenticate', 'Basic realm="oauth", charset="UTF-8"')
  return response
}

function json(event: H3Event, status: number, body: object): Response {
  const headers = baseHeaders(requestIdOf(event), JSON_TYPE, CACHE.none)
  headers.set('pragma', 'no-cache')
  return new Response(JSON.stringify(body), { status, headers })
}
