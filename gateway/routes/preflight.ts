/** OPTIONS on any path: the CORS preflight answer. */
import { defineHandler } from 'h3'
import { ALLOWED_REQUEST_HEADERS, baseHeaders, CACHE } from '../../contract/headers.ts'
import { requestIdOf } from '../http/request-id.ts'
import { MCP_PATH, REGISTRATION_PATH, REVOCATION_PATH, TOKEN_PATH, USERINFO_PATH } from '../../contract/public-paths.ts'

/** Paths that take POST instead of the read methods (userinfo takes both). */
const POST_PATHS = new Set<string>([MCP_PATH, TOKEN_PATH, REGISTRATION_PATH, REVOCATION_PATH])

export const preflightRoute = defineHandler((event) => {
  const path = event.url.pathname
  const methods =
    path === USERINFO_PATH ? 'GET, POST, OPTIONS' : POST_PATHS.has(path) ? 'POST, OPTIONS' : 'GET, HEAD, OPTIONS'
  const headers = baseHeaders(requestIdOf(event), 'text/plain; charset=utf-8', CACHE.none)
  headers.delete('content-type')
  headers.set('allow', methods)
  headers.set('access-control-allow-methods', methods)
  headers.set('access-control-allow-headers', ALLOWED_REQUEST_HEADERS)
  headers.set('access-control-max-age', '86400')
  return new Response(null, { status: 204, headers })
})
