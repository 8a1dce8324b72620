/**
 * The route table: every public route of the product, declared once (see
 * route.ts for what a route says). The gateway mounts each `gateway` route
 * with the handler of its id, and TypeScript refuses a table with a route no
 * handler answers (gateway/routes/mount.ts); the OpenAPI paths, the body limits
 * and the Netlify rules are written from it. Order is the document's.
 *
 * Where the next things go: a budget of its own for a route (a name in
 * contract/budgets.ts, listed in the route's `budgets`); a deprecated route
 * or parameter (`deprecated`); a new query parameter of lists (one
 * QueryParameter in parameters.ts, or made from a collection's definition in
 * collection-parameters.ts, listed in the list route's `parameters`: a
 * filter in LIST_FILTERS, which search, the MCP tools and
 * `prerendered.computedBy` take too; the gateway's reader, the document and
 * the tools' arguments follow from it, and its key in ListQuery is the
 * parsed query's). The requests the API sends
 * (webhooks) are not routes of its own: contract/webhook-events.ts, written
 * into the document by build/openapi/webhooks.ts. What `npm run dev` alone
 * answers (the author's preview under /preview/, the editor's local backend)
 * is no public route either: the dev server mounts it (Platform.routes), and
 * `npm start` and Netlify answer 404 there.
 */
import { health, item, list, liveness } from './content.ts'
import {
  apiCatalog,
  changelogJson,
  changelogPage,
  clientTypes,
  docs,
  home,
  llms,
  llmsFull,
  openapi,
  problemType,
} from './discovery.ts'
import { editor, media } from './files.ts'
export { INTERNAL_FOLDERS, isInternalPath } from './files.ts'
import { mcp } from './mcp.ts'
import { authorizationServer, jwks, openidConfiguration, protectedResource, protectedResourceMcp } from './metadata.ts'
import {
  authorize,
  authorizeResume,
  register,
  revoke,
  signIn,
  signInAbort,
  signInConfirm,
  signInLogin,
  token,
  userinfo,
} from './oauth.ts'
import { atomFeed, calendar, changes, itemCalendar, jsonFeed, rssFeed, search } from './search-changes-feeds.ts'
import type { ContentModel } from '../model/model.ts'
import { templateSource } from '../regexp.ts'
import type { Parameter, Prerendered, Route } from './route.ts'
import { redirects, sitemap, sitemapPart, tag, tags } from './taxonomy.ts'
import { people, person } from './people.ts'
import { previewItem, previewList, previewSearch, previewShareLink, review } from './preview.ts'

export const ROUTES = {
  list,
  item,
  search,
  changes,
  tags,
  tag,
  people,
  person,
  redirects,
  previewSearch,
  previewList,
  previewItem,
  review,
  previewShareLink,
  rssFeed,
  atomFeed,
  jsonFeed,
  calendar,
  itemCalendar,
  health,
  liveness,
  mcp,
  authorize,
  authorizeResume,
  token,
  register,
  revoke,
  userinfo,
  signIn,
  signInLogin,
  signInConfirm,
  signInAbort,
  home,
  openapi,
  docs,
  changelogPage,
  changelogJson,
  clientTypes,
  llms,
  llmsFull,
  sitemap,
  sitemapPart,
  apiCatalog,
  problemType,
  authorizationServer,
  openidConfiguration,
  protectedResource,
  jwks,
  protectedResourceMcp,
  media,
  editor,
} as const satisfies Record<string, Route>

export type RouteId = keyof typeof ROUTES
/** The routes a gateway handler answers: one handler each, by id. */
export type GatewayRouteId = { [K in RouteId]: (typeof ROUTES)[K]['served'] extends 'gateway' ? K : never }[RouteId]

export const ROUTE_IDS = Object.keys(ROUTES) as RouteId[]

/** The paths the document writes for a route: its own, or one per value of its `each` parameter in `model`. */
export function documentedPaths(route: Route, model: ContentModel): { path: string; value?: string }[] {
  if (!route.each) return [{ path: route.path }]
  const { parameter, values } = route.each
  return values(model).map((value) => ({ path: route.path.replace(`{${parameter}}`, value), value }))
}

/** The parameters of a route in `model`, for the path of `value` of its `each` parameter where it has one. */
export function parametersOf(route: Route, model: ContentModel, value?: string): readonly Parameter[] {
  const { parameters } = route
  if (typeof parameters !== 'function') return parameters ?? []
  if (!route.each) return (parameters as (model: ContentModel) => readonly Parameter[])(model)
  if (value === undefined) throw new Error(`the parameters of ${route.path} differ by ${route.each.parameter}`)
  return (parameters as (value: string, model: ContentModel) => readonly Parameter[])(value, model)
}

/** The concrete paths of a route: each `{parameter}` stands for one or more characters other than `/`. */
export function pathPattern(route: Pick<Route, 'path'>): RegExp {
  return new RegExp(`^${templateSource(route.path)}$`)
}

/** The files whose routes set their own cache policy, with the pattern of their paths. */
const CACHED_FILES = (Object.values(ROUTES) as Route[])
  .filter((route) => route.served === 'file' && route.cache)
  .map((route) => ({ pattern: pathPattern(route), cache: route.cache! }))

/** The cache policy a route of the table sets for the file at `path` (`/media/…`), if one does. */
export function cacheOfFile(path: string): NonNullable<Route['cache']> | undefined {
  return CACHED_FILES.find(({ pattern }) => pattern.test(path))?.cache
}

/** The Allow header of a route (a 405's, and the preflight's): its methods, and OPTIONS, which every path answers. */
export function allowOf(route: Pick<Route, 'methods'>): string {
  return [...route.methods, 'OPTIONS'].join(', ')
}

/**
 * Whether a pre-rendered file answers this request (then it draws from no budget), on the CDN and in
 * the gateway alike. `computed`: the route's parameters of the content model no file has (a
 * collection's field filters), where the request names a collection.
 */
export function answeredByFile(
  route: Route,
  query: URLSearchParams,
  computed: readonly string[] = [],
  model?: ContentModel,
): boolean {
  const { prerendered } = route
  if (!prerendered) return false
  for (const name of prerendered.computedBy) if (query.has(name)) return false
  for (const name of computed) if (query.has(name)) return false
  const file = prerendered.fileParameter
  if (!file) return true
  const values = query.getAll(file.name)
  return values.length === 0 || (values.length === 1 && fileValues(file, model).includes(values[0]!))
}

/** The values of a file parameter that have a file each: none of a model's when no model is known. */
export function fileValues(
  file: NonNullable<Prerendered['fileParameter']>,
  model: ContentModel | undefined,
): readonly string[] {
  if (typeof file.values !== 'function') return file.values
  return model ? file.values(model) : []
}
