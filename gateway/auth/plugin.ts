/**
 * `authPlugin(auth)`: the credential routes, mounted before the static
 * fallback — RFC 9728 protected-resource metadata (API and /mcp), RFC 8414
 * metadata of the issuer in use, and in built-in mode the token endpoint and
 * the JWKS. With an external issuer, its metadata is mirrored (503 when it
 * cannot be fetched).
 */
import { defineHandler, type H3, type H3Event } from 'h3'
import { etagOf } from '../../build/contract/etag.ts'
import { CACHE, JSON_TYPE } from '../../build/contract/headers.ts'
import { assertMethod, READ_METHODS } from '../http/negotiate.ts'
import { problem } from '../http/problem.ts'
import { respondWithFile } from '../http/respond.ts'
import type { Auth } from './auth.ts'
import { IssuerUnavailableError } from './errors.ts'
import { tokenEndpoint } from './issuer/token-endpoint.ts'
import { builtInIssuerMetadata, protectedResourceMetadata } from './metadata.ts'
import {
  AUTHORIZATION_SERVER_PATH,
  JWKS_PATH,
  PROTECTED_RESOURCE_PATH,
  RESOURCE_PATHS,
  TOKEN_PATH,
} from '../../build/contract/public-paths.ts'

export function authPlugin(auth: Auth): (app: H3) => void {
  return (app) => {
    for (const path of RESOURCE_PATHS) {
      app.all(`${PROTECTED_RESOURCE_PATH}${path}`, document(() => protectedResourceMetadata(auth.publicUrl(), auth.issuer(), path)))
    }
    const { builtIn, external } = auth
    if (builtIn) {
      app.all(AUTHORIZATION_SERVER_PATH, document(() => builtInIssuerMetadata(auth.issuer())))
      app.all(JWKS_PATH, document(() => ({ keys: [builtIn.key.publicJwk] })))
      app.all(TOKEN_PATH, tokenEndpoint({ issuer: auth.issuer, resources: auth.resources, clients: builtIn.clients, key: builtIn.key, ttlSeconds: builtIn.ttlSeconds, log: auth.log }))
    } else if (external) {
      app.all(AUTHORIZATION_SERVER_PATH, document(async () => {
        try {
          return await external.get()
        } catch (error) {
          if (!(error instanceof IssuerUnavailableError)) throw error
          auth.log('warn', 'issuer metadata unavailable', { error: error.message })
          throw problem('unavailable', { detail: 'The authorization server\'s metadata cannot be fetched right now; retry later.', headers: { 'retry-after': '10' } })
        }
      }))
    }
  }
}

/** A JSON document with an ETag, cacheable like the other discovery documents. */
function document(build: () => object | Promise<object>) {
  return defineHandler(async (event: H3Event) => {
    assertMethod(event, READ_METHODS)
    const body = Buffer.from(JSON.stringify(await build()))
    return respondWithFile(event, { body, etag: etagOf(body) }, { contentType: JSON_TYPE, cacheControl: CACHE.document })
  })
}
