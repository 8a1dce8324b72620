/** OPTIONS on any path: the CORS preflight answer, naming the methods of the route the path is (mount.ts). */
import { defineHandler } from 'h3'
import { ALLOWED_REQUEST_HEADERS, baseHeaders, CACHE } from '../../contract/headers.ts'
import { allowOf } from '../../contract/routes/index.ts'
import { READ } from '../../contract/routes/route.ts'
import { requestIdOf } from '../http/request-id.ts'
import { routeOf } from './mount.ts'

/** Paths of no gateway route: the build's files, read with GET and HEAD. */
const FILE_METHODS = allowOf({ methods: READ })

export const preflightRoute = defineHandler((event) => {
  const route = routeOf(event)
  const methods = route ? allowOf(route) : FILE_METHODS
  const headers = baseHeaders(requestIdOf(event), 'text/plain; charset=utf-8', CACHE.none)
  headers.delete('content-type')
  headers.set('allow', methods)
  headers.set('access-control-allow-methods', methods)
  headers.set('access-control-allow-headers', ALLOWED_REQUEST_HEADERS)
  headers.set('access-control-max-age', '86400')
  return new Response(null, { status: 204, headers })
})
