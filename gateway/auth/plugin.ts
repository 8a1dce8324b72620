/**
 * `authPlugin(auth)`: the credential routes, mounted before the static
 * fallback — RFC 9728 protected-resource metadata (API and /mcp), RFC 8414
 * metadata of the issuer in use, and in built-in mode the embedded OpenID
 * provider: its discovery document (also at the OpenID path), JWKS,
 * endpoints, and our sign-in and consent pages. With an external issuer, its
 * metadata is mirrored (503 when it cannot be fetched).
 */
import { defineHandler, type H3, type H3Event } from 'h3'
import { etagOf } from '../../contract/etag.ts'
import { CACHE, JSON_TYPE } from '../../contract/headers.ts'
import { assertMethod, READ_METHODS } from '../http/negotiate.ts'
import { problem } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import type { Auth } from './auth.ts'
import { IssuerUnavailableError } from './errors.ts'
import { interactionRoutes } from './issuer/interaction/handlers.ts'
import { providerRoutes } from './issuer/provider-routes.ts'
import { protectedResourceMetadata } from './metadata.ts'
import {
  AUTHORIZATION_SERVER_PATH,
  JWKS_PATH,
  OPENID_CONFIGURATION_PATH,
  PROTECTED_RESOURCE_PATH,
  RESOURCE_PATHS,
} from '../../contract/public-paths.ts'

export function authPlugin(auth: Auth): (app: H3) => void {
  return (app) => {
    for (const path of RESOURCE_PATHS) {
      app.all(
        `${PROTECTED_RESOURCE_PATH}${path}`,
        document(() => protectedResourceMetadata(auth.publicUrl(), auth.issuer(), path)),
      )
    }
    const { builtIn, external } = auth
    if (builtIn) {
      // One document at both addresses: RFC 8414 clients and OpenID relying parties find the same server.
      app.all(
        AUTHORIZATION_SERVER_PATH,
        document(() => builtIn.discovery()),
      )
      app.all(
        OPENID_CONFIGURATION_PATH,
        document(() => builtIn.discovery()),
      )
      app.all(
        JWKS_PATH,
        document(() => ({ keys: [builtIn.key.publicJwk] })),
      )
      providerRoutes(auth, builtIn)(app)
      interactionRoutes(auth, builtIn)(app)
    } else if (external) {
      app.all(
        AUTHORIZATION_SERVER_PATH,
        document(async () => {
          try {
            return await external.get()
          } catch (error) {
            if (!(error instanceof IssuerUnavailableError)) throw error
            auth.log('warn', 'issuer metadata unavailable', { error: error.message })
            throw problem('unavailable', {
              detail: "The authorization server's metadata cannot be fetched right now; retry later.",
              headers: { 'retry-after': '10' },
            })
          }
        }),
      )
    }
  }
}

/** A JSON document with an ETag, cacheable like the other discovery documents. */
function document(build: () => object | Promise<object>) {
  return defineHandler(async (event: H3Event) => {
    assertMethod(event, READ_METHODS)
    const body = Buffer.from(JSON.stringify(await build()))
    return respondWithFile(
      event,
      { body, etag: etagOf(body) },
      { contentType: JSON_TYPE, cacheControl: CACHE.document },
    )
  })
}
