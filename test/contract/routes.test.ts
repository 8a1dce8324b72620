/**
 * The route table (contract/routes/) is the one declaration of each public
 * route: what it declares is what the OpenAPI document says and what the
 * gateway answers. (The Netlify rules: test/gateway/netlify/netlify-config.test.ts;
 * body limits: test/gateway/http/limits.test.ts; budgets: test/gateway/http/computed-budget.test.ts.)
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CollectionName } from '../../contract/model/model.ts'
import type { Manifest } from '../../contract/manifest.ts'
import { MANIFEST_FILE } from '../../contract/paths.ts'
import { CACHE } from '../../contract/headers.ts'
import { allowOf, answeredByFile, documentedPaths, pathPattern, ROUTES } from '../../contract/routes/index.ts'
import type { Route } from '../../contract/routes/route.ts'
import { routerPath, type RouteHandlers } from '../../gateway/routes/mount.ts'
import { startBuiltGateway, type BuiltGateway } from '../helpers/gateway.ts'
import { FIXTURE_MODEL } from '../helpers/site.ts'

const ROUTE_LIST = Object.entries(ROUTES) as [string, Route][]
/** Files only a site past the sitemap's limits has (test/build/emit/sitemap.test.ts splits one). */
const PARTS_ONLY_WHEN_LARGE = new Set<Route>([ROUTES.sitemapPart])

let gw: BuiltGateway
let doc: { paths: Record<string, Record<string, unknown>> }
let manifest: Manifest

beforeAll(async () => {
  gw = await startBuiltGateway()
  doc = JSON.parse(await readFile(join(gw.project.dist, 'openapi.json'), 'utf8')) as typeof doc
  manifest = JSON.parse(await readFile(join(gw.project.dist, MANIFEST_FILE), 'utf8')) as Manifest
}, 120_000)
afterAll(() => gw?.close())

/** Each path of the route with its parameters given values of the build (a published slug, a feed, a problem, an image). */
function concrete(route: Route): string[] {
  const values: Record<string, string> = { feed: 'all', calendar: 'events', name: 'not-found', uid: 'x' }
  return documentedPaths(route, FIXTURE_MODEL).map(({ path, value }) => {
    // A file of any name (an image): the first the build has there.
    if (path.includes('{file}')) {
      const file = Object.keys(manifest.files)
        .map((f) => `/${f}`)
        .find((f) => pathPattern({ path }).test(f))
      expect(file, `a file of the build at ${path}`).toBeDefined()
      return file!
    }
    // A tag of the published items.
    if (path.includes('{tag}'))
      return path.replace(
        '{tag}',
        manifest.model.names.flatMap((c) => manifest.collections[c]!.flatMap((r) => r.tags))[0]!,
      )
    // A route of one collection takes its slug; one of any collection (a calendar), an event's.
    const collection = (value ?? 'events') as CollectionName
    const given = path.replace('{slug}', manifest.collections[collection]![0]!.slug).replace('{collection}', collection)
    return given.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? 'x')
  })
}

describe('the route table', () => {
  it('declares every route once, at a path no other route has', () => {
    const paths = ROUTE_LIST.map(([, route]) => route.path)
    expect(new Set(paths).size).toBe(paths.length)
  })

  it.each(ROUTE_LIST)('%s: the document has its operations, and only those', (_, route) => {
    for (const { path, value } of documentedPaths(route, FIXTURE_MODEL)) {
      if (!('operations' in route)) {
        expect(doc.paths[path], `${path} is not documented`).toBeUndefined()
        continue
      }
      const operations =
        typeof route.operations === 'function' ? route.operations(value!, FIXTURE_MODEL) : route.operations
      expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual(Object.keys(operations).sort())
      // Every documented method is one the route answers.
      for (const method of Object.keys(operations)) expect(route.methods).toContain(method.toUpperCase())
    }
  })

  it('documents no path that is not a route of the table', () => {
    const declared = new Set(
      ROUTE_LIST.flatMap(([, route]) => documentedPaths(route, FIXTURE_MODEL).map((p) => p.path)),
    )
    expect(Object.keys(doc.paths).filter((path) => !declared.has(path))).toEqual([])
  })

  it.each(ROUTE_LIST.filter(([, route]) => route.served === 'gateway'))(
    '%s: the gateway answers it with the methods the table gives (405 naming them for another)',
    async (_, route) => {
      for (const path of concrete(route)) {
        const res = await fetch(`${gw.url}${path}`, { method: 'DELETE' })
        expect(res.status, `DELETE ${path}`).toBe(405)
        expect(res.headers.get('allow')).toBe(allowOf(route))
        await res.body?.cancel()
        const preflight = await fetch(`${gw.url}${path}`, { method: 'OPTIONS' })
        expect(preflight.headers.get('access-control-allow-methods')).toBe(allowOf(route))
      }
    },
  )

  it.each(ROUTE_LIST.filter(([, route]) => route.served === 'file' && !PARTS_ONLY_WHEN_LARGE.has(route)))(
    '%s: the build has it as a file, and the gateway serves it',
    async (_, route) => {
      for (const path of concrete(route)) {
        const res = await fetch(`${gw.url}${path}`)
        expect(res.status, path).toBe(200)
        await res.body?.cancel()
      }
    },
  )

  it.each(ROUTE_LIST.filter(([, route]) => route.cache))(
    '%s: its files are served with its cache policy, by the gateway and by the Netlify rules',
    async (_, route) => {
      const [path] = concrete(route)
      const res = await fetch(`${gw.url}${path}`)
      expect(res.headers.get('cache-control')).toBe(CACHE[route.cache!])
      await res.body?.cancel()
      const folder = `${route.path.slice(0, route.path.indexOf('{'))}*`
      const headers = await readFile(join(gw.project.dist, '_headers'), 'utf8')
      expect(headers).toContain(`${folder}\n  cache-control: ${CACHE[route.cache!]}\n`)
    },
  )

  it('answers a pre-rendered request from a file, and counts only computed ones against the budget', async () => {
    const list = ROUTES.list
    expect(answeredByFile(list, new URLSearchParams('limit=5'))).toBe(true)
    expect(answeredByFile(list, new URLSearchParams('utm_source=x'))).toBe(true)
    for (const query of [
      'page=2',
      'tag=x',
      'updated_since=2026-01-01T00:00:00Z',
      'limit=101',
      'limit=05',
      'limit=1&limit=2',
    ])
      expect(answeredByFile(list, new URLSearchParams(query)), query).toBe(false)
    expect(answeredByFile(ROUTES.search, new URLSearchParams('q=x'))).toBe(false)
    expect(answeredByFile(ROUTES.changes, new URLSearchParams())).toBe(true)
    expect(answeredByFile(ROUTES.changes, new URLSearchParams('since=abc'))).toBe(false)
  })

  it('cannot be mounted with a route the gateway serves left without a handler (the type says so)', () => {
    // @ts-expect-error: every route but health left out (`npx tsc --noEmit` fails if this compiles)
    const incomplete: RouteHandlers = { health: () => 'ok' }
    expect(Object.keys(incomplete)).toEqual(['health'])
  })

  it('gives the router each gateway path in its own form, whole segments only', () => {
    expect(routerPath('/api/{collection}/{slug}')).toBe('/api/:collection/:slug')
    expect(() => routerPath('/feeds/{feed}.xml')).toThrow(/whole path segments/)
  })
})
