/**
 * The deprecation headers of the gateway's answers: a route's middleware
 * (mount.ts) works out what the request uses that is deprecated — the route,
 * a parameter it gives (both from the route table), a field its answer
 * carries (from the build's manifest, which has them from the schemas) — and
 * the app's onResponse writes `Deprecation`, `Sunset` and `Link` into
 * whatever answer follows, a problem included. Such answers are never
 * repeated by the fast path (respond.ts), which would not know them.
 */
import { defineMiddleware, type H3Event, type Middleware } from 'h3'
import { deprecationFields, requestDeprecations, type Deprecation } from '../../contract/routes/deprecation.ts'
import type { Route } from '../../contract/routes/route.ts'
import { pathPattern } from '../../contract/routes/index.ts'
import type { ArtifactStore } from '../artifacts.ts'

const FIELDS = 'deprecation'

/** The fields of this request's answer, when it uses something deprecated. */
export function deprecationOf(event: H3Event): Record<string, string> | undefined {
  return event.context[FIELDS] as Record<string, string> | undefined
}

/** The route's middleware: what the request uses that is deprecated, noted for the answer. */
export function deprecationsOf(route: Route, store: ArtifactStore): Middleware {
  return defineMiddleware((event) => {
    const value = route.each ? event.context.params?.[route.each.parameter] : undefined
    const snapshot = store.current()
    // Without a build the route answers 503: its own deprecation is all there is to say.
    const used: Deprecation[] = snapshot
      ? requestDeprecations(route, snapshot.model, event.url.searchParams, event.req.headers, value)
      : route.deprecated
        ? [route.deprecated]
        : []
    const fields = snapshot?.manifest.deprecated_fields
    if (fields) used.push(...(fields[documentedPath(route, event)] ?? []))
    if (used.length > 0) event.context[FIELDS] = deprecationFields(used)
  })
}

/** A deprecated route the build answers with files: its paths' answers say so. */
export function deprecatedFiles(route: Route): Middleware {
  const fields = deprecationFields([route.deprecated!])
  // The route's path template matches every path it documents, whatever the build's collections.
  const patterns = [pathPattern(route)]
  return defineMiddleware((event) => {
    if (patterns.some((pattern) => pattern.test(event.url.pathname))) event.context[FIELDS] = fields
  })
}

/** Writes the noted fields into the answer; a `Link` it has already (a page's next and prev) keeps its links. */
export function withDeprecationFields(response: Response, event: H3Event): void {
  const fields = deprecationOf(event)
  if (!fields) return
  try {
    for (const [name, value] of Object.entries(fields))
      if (name === 'link') response.headers.append(name, value)
      else response.headers.set(name, value)
  } catch {
    // Headers of a fetched or redirect answer cannot be changed; none of the table's routes answers with one.
  }
}

/** The document's path of the request: the route's, with its `each` parameter's value in place. */
function documentedPath(route: Route, event: H3Event): string {
  if (!route.each) return route.path
  const value = event.context.params?.[route.each.parameter]
  return value === undefined ? route.path : route.path.replace(`{${route.each.parameter}}`, value)
}
