/**
 * The gateway's routes, mounted from the route table (contract/routes/):
 * every route the gateway serves, with the handler of its id. The handlers
 * come as one object typed by the table, so a route declared there that no
 * handler answers does not compile. What the table says about a route is
 * enforced here, before its handler runs: its budgets (not for requests a
 * pre-rendered file answers), its body limit, its methods; and what it says
 * is deprecated (the route, a parameter, a field of its answers) is named in
 * the answer's Deprecation, Sunset and Link headers (http/deprecation.ts).
 */
import { defineHandler, type EventHandler, type H3, type H3Event, type Middleware } from 'h3'
import { ROUTE_IDS, ROUTES, type GatewayRouteId } from '../../contract/routes/index.ts'
import type { Route } from '../../contract/routes/route.ts'
import type { Settings } from '../../contract/settings.ts'
import { bodyLimit } from '../http/body-limit.ts'
import { budgetGuard } from '../http/budget-guard.ts'
import type { Budgets } from '../http/budgets.ts'
import { assertMethod } from '../http/negotiate.ts'
import { deprecatedFiles, deprecationsOf } from '../http/deprecation.ts'
import type { ArtifactStore } from '../artifacts.ts'

/** A route this gateway does not have (the embedded issuer's, with an external one): not mounted, so a 404. */
export const NOT_HERE = Symbol('not here')

export type RouteHandler = EventHandler | typeof NOT_HERE

/** One handler per route the gateway serves, by route id. */
export type RouteHandlers = Record<GatewayRouteId, RouteHandler>

/** `/api/{collection}` → `/api/:collection`: the router's form of a table path (whole segments only). */
export function routerPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (whole, name: string, at: number) => {
    const end = at + whole.length
    if (path[at - 1] !== '/' || (end < path.length && path[end] !== '/'))
      throw new Error(`the gateway answers whole path segments only: ${path}`)
    return `:${name}`
  })
}

/** The table's route of the request, once the router has matched it (for the preflight). */
export function routeOf(event: H3Event): Route | undefined {
  return (event.context.matchedRoute?.meta as { route?: Route } | undefined)?.route
}

export function mountRoutes(
  app: H3,
  handlers: RouteHandlers,
  settings: Settings,
  budgets: Budgets,
  store: ArtifactStore,
): void {
  // The build's files of a deprecated route say so too (no route of the table is mounted for them).
  for (const route of Object.values(ROUTES) as Route[])
    if (route.served === 'file' && route.deprecated) app.use(deprecatedFiles(route))
  for (const id of ROUTE_IDS) {
    const route: Route = ROUTES[id]
    const handler = route.served === 'gateway' ? handlers[id as GatewayRouteId] : NOT_HERE
    if (handler === NOT_HERE) continue
    // First: the answers of every check below name what the request used that is deprecated.
    const middleware: Middleware[] = [deprecationsOf(route, store)]
    const charge = budgets.chargeOf(route)
    // Budgets first: a client past one does not get its body read.
    if (charge) middleware.push(budgetGuard(route, charge, settings.TRUST_PROXY, store))
    if (route.body) middleware.push(bodyLimit(route.body, settings[route.body.limit]))
    const guarded = defineHandler((event) => {
      assertMethod(event, route)
      return handler(event)
    })
    app.all(routerPath(route.path), guarded, { middleware, meta: { route } })
  }
}
