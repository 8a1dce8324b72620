/**
 * The gateway: a small h3 app for what a CDN cannot do. It answers every API
 * request from the built artifacts (pre-rendered bytes when they exist, the
 * shared renderer otherwise), with RFC 9457 problems for every error.
 */
import { H3, type HTTPError, type H3Event } from 'h3'
import type { ArtifactStore } from './artifacts.ts'
import { baseHeaders, CACHE, PROBLEM_TYPE } from '../contract/headers.ts'
import { toProblem } from './http/problem.ts'
import { assignRequestId, requestIdOf } from './http/request-id.ts'
import { installLimits, type LimitSettings } from './http/limits.ts'
import { logRequest } from './http/request-log.ts'
import { silentLogger, type Logger } from './log.ts'
import { changesRoute } from './routes/changes.ts'
import { itemRoute, listRoute } from './routes/content.ts'
import { healthRoute } from './routes/health.ts'
import { preflightRoute } from './routes/preflight.ts'
import { searchRoute } from './routes/search.ts'
import { staticRoute } from './routes/static.ts'
import { API_PREFIX, CHANGES_PATH, HEALTH_PATH, SEARCH_PATH } from '../contract/public-paths.ts'

export interface GatewayOptions {
  store: ArtifactStore
  version: string
  logger?: Logger
  /** Extra routes (auth, MCP, …) mounted before the static fallback. */
  plugins?: ((app: H3) => void)[]
  /** Timeout, body caps and rate limits (defaults in gateway/http/limits.ts). */
  limits?: Partial<LimitSettings>
}

export function createApp(options: GatewayOptions): H3 {
  const log = options.logger ?? silentLogger
  const app = new H3({
    onRequest: (event) => {
      event.context.startedAt = performance.now()
      assignRequestId(event)
    },
    onResponse: (response, event) =>
      logRequest(
        log,
        requestIdOf(event),
        event.req.method,
        event.url.pathname,
        response.status,
        event.context.startedAt as number | undefined,
      ),
    onError: (error, event) => problemResponse(error, event, log),
  })
  // CORS preflight for every path, before any route's method check.
  app.use((event) => (event.req.method === 'OPTIONS' ? preflightRoute(event) : undefined))
  installLimits(app, options.limits)
  // The reserved names under /api/ before the collections (RESERVED_API_NAMES: no collection takes them).
  app.all(HEALTH_PATH, healthRoute(options.store, options.version))
  app.all(SEARCH_PATH, searchRoute(options.store))
  app.all(CHANGES_PATH, changesRoute(options.store))
  app.all(`${API_PREFIX}/:collection`, listRoute(options.store))
  app.all(`${API_PREFIX}/:collection/:slug`, itemRoute(options.store))
  for (const plugin of options.plugins ?? []) plugin(app)
  app.all('/**', staticRoute(options.store))
  return app
}

function problemResponse(error: HTTPError, event: H3Event, log: Logger): Response {
  const body = toProblem(error, event.url.pathname)
  if (body.status >= 500) {
    log('error', 'request failed', {
      request_id: requestIdOf(event),
      status: body.status,
      error: String(error.cause ?? error.message),
    })
  }
  const headers = baseHeaders(requestIdOf(event), PROBLEM_TYPE, CACHE.none)
  if (error.headers) for (const [k, v] of error.headers) headers.set(k, v)
  const json = JSON.stringify(body)
  headers.set('content-length', String(Buffer.byteLength(json)))
  return new Response(event.req.method === 'HEAD' ? null : json, { status: body.status, headers })
}
