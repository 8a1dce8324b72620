/**
 * `authHandlers(auth)`: the handlers of the credential routes of the table —
 * RFC 9728 protected-resource metadata (API and /mcp), RFC 8414 metadata of
 * the issuer in use, and in built-in mode the embedded OpenID provider: its
 * discovery document (also at the OpenID path), JWKS, endpoints, and our
 * sign-in and consent pages. With an external issuer, its metadata is
 * mirrored (503 when it cannot be fetched) and the embedded issuer's routes
 * are not mounted (NOT_HERE: the 404 of any path the gateway has nothing at).
 */
import { defineHandler, type H3Event } from 'h3'
import { etagOf } from '../../contract/etag.ts'
import { CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { MCP_PATH } from '../../contract/public-paths.ts'
import { unavailable } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import { NOT_HERE, type RouteHandler } from '../routes/mount.ts'
import type { Auth } from './auth.ts'
import { IssuerUnavailableError } from './errors.ts'
import { interactionHandlers } from './issuer/interaction/handlers.ts'
import { providerHandlers } from './issuer/provider-routes.ts'
import { protectedResourceMetadata } from './metadata.ts'

/** The route table's credential routes (contract/routes/metadata.ts and oauth.ts). */
export const AUTH_ROUTES = [
  'protectedResource',
  'protectedResourceMcp',
  'authorizationServer',
  'openidConfiguration',
  'jwks',
  'authorize',
  'authorizeResume',
  'token',
  'register',
  'revoke',
  'userinfo',
  'signIn',
  'signInLogin',
  'signInConfirm',
  'signInAbort',
] as const

export type AuthRouteId = (typeof AUTH_ROUTES)[number]
export type AuthHandlers = Record<AuthRouteId, RouteHandler>

export function authHandlers(auth: Auth): AuthHandlers {
  const metadata = {
    protectedResource: document(() =>
      protectedResourceMetadata(auth.publicUrl(), auth.issuer(), '', auth.resources().scopes),
    ),
    protectedResourceMcp: document(() =>
      protectedResourceMetadata(auth.publicUrl(), auth.issuer(), MCP_PATH, auth.resources().scopes),
    ),
  }
  const { builtIn, external } = auth
  if (builtIn) {
    // One document at both addresses: RFC 8414 clients and OpenID relying parties find the same server.
    const discovery = document(() => builtIn.discovery())
    return {
      ...metadata,
      authorizationServer: discovery,
      openidConfiguration: discovery,
      jwks: document(() => ({ keys: [builtIn.key.publicJwk] })),
      ...providerHandlers(auth, builtIn),
      ...interactionHandlers(auth, builtIn),
    }
  }
  const mirrored = document(async () => {
    try {
      return await external!.get()
    } catch (error) {
      if (!(error instanceof IssuerUnavailableError)) throw error
      auth.log('warn', 'issuer metadata unavailable', { error: error.message })
      throw unavailable("The authorization server's metadata cannot be fetched right now; retry later.", 10)
    }
  })
  return { ...withoutAuth(), ...metadata, authorizationServer: mirrored }
}

/** No credential route (credentials failed to start, on the Netlify function). */
export function withoutAuth(): AuthHandlers {
  return Object.fromEntries(AUTH_ROUTES.map((id) => [id, NOT_HERE])) as AuthHandlers
}

/** A JSON document with an ETag, cacheable like the other discovery documents. */
function document(build: () => object | Promise<object>) {
  return defineHandler(async (event: H3Event) => {
    const body = Buffer.from(JSON.stringify(await build()))
    return respondWithFile(
      event,
      { body, etag: etagOf(body) },
      { contentType: JSON_TYPE, cacheControl: CACHE.document },
    )
  })
}
