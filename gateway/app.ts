/**
 * The gateway's h3 app: for what a CDN cannot do. Every route of the table
 * the gateway serves (routes/mount.ts), then the routes a runtime adds (the
 * dev server's preview), then the build's files; RFC 9457 problems for every
 * error (a state store that cannot be used: 503), one JSON log line per request. Made by createGateway (gateway.ts).
 */
import { H3 } from 'h3'
import type { ArtifactStore } from './artifacts.ts'
import type { Settings } from '../contract/settings.ts'
import type { Budgets } from './http/budgets.ts'
import { alreadyLogged, problemResponse } from './http/problem.ts'
import { isPreviewPath, PREVIEW_HEADERS } from '../contract/preview.ts'
import { assignRequestId, requestIdOf } from './http/request-id.ts'
import { logRequest } from './http/request-log.ts'
import { withDeprecationFields } from './http/deprecation.ts'
import { storeFaultAnswers } from './http/store-faults.ts'
import { requestTimeout } from './http/timeout.ts'
import type { Logger } from './log.ts'
import { mountRoutes, type RouteHandlers } from './routes/mount.ts'
import { preflightRoute } from './routes/preflight.ts'
import { staticRoute } from './routes/static.ts'

export interface AppParts {
  settings: Settings
  store: ArtifactStore
  logger: Logger
  budgets: Budgets
  handlers: RouteHandlers
  /** Routes outside the table, mounted before the build's files (the dev server's /preview/). */
  extraRoutes: readonly ((app: H3) => void)[]
  /** The gateway's clock (the platform's): the build's files are not cached past its next release or expiry. */
  now: () => Date
}

export function createApp(parts: AppParts): H3 {
  const log = parts.logger
  const app = new H3({
    onRequest: (event) => {
      event.context.startedAt = performance.now()
      assignRequestId(event)
    },
    onResponse: (response, event) => {
      withDeprecationFields(response, event)
      logRequest(
        log,
        requestIdOf(event),
        event.req.method,
        event.url.pathname,
        response.status,
        event.context.startedAt as number | undefined,
      )
    },
    onError: (error, event) => {
      const response = problemResponse(error, requestIdOf(event), event.req.method, event.url.pathname)
      // A refusal of the preview is nobody's to keep either.
      if (isPreviewPath(event.url.pathname))
        for (const [name, value] of Object.entries(PREVIEW_HEADERS)) response.headers.set(name, value)
      if (response.status >= 500 && !alreadyLogged(error)) {
        log('error', 'request failed', {
          request_id: requestIdOf(event),
          status: response.status,
          // The thrower's own error where there is one (a plain object would log as [object Object]).
          error: error.cause instanceof Error ? error.cause.message : error.message,
        })
      }
      return response
    },
  })
  // CORS preflight for every path, before any route's method check.
  app.use((event) => (event.req.method === 'OPTIONS' ? preflightRoute(event) : undefined))
  // A deadline for every handler (a synchronous one, every pre-rendered read, costs no timer).
  app.use(requestTimeout(parts.settings.REQUEST_TIMEOUT_MS))
  // A state store that cannot be used is a 503 with Retry-After on every route, logged once.
  app.use(storeFaultAnswers(log))
  mountRoutes(app, parts.handlers, parts.settings, parts.budgets, parts.store)
  for (const mount of parts.extraRoutes) mount(app)
  app.all('/**', staticRoute(parts.store, parts.now))
  return app
}
