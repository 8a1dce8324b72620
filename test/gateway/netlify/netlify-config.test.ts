/**
 * Netlify's rules as Netlify reads them (its own redirect parser), held to
 * the route table (contract/routes/): every route reaches what answers it —
 * the function for a route the gateway answers, a file for a pre-rendered
 * request — and the hand-kept [[redirects]] of netlify.toml are exactly the
 * routes of a budget Netlify holds at its edge, with that budget's quota,
 * in the shape Netlify documents; no rule of the generated dist/_redirects
 * (which Netlify matches first) shadows them. The local emulation ignores
 * rate limits, so this is where their shape is held.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseAllRedirects } from '@netlify/redirect-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { atTheEdge } from '../../../build/emit/netlify.ts'
import { BUDGETS } from '../../../contract/budgets.ts'
import { FUNCTION_PREFIX } from '../../../contract/public-paths.ts'
import { documentedPaths, INTERNAL_FOLDERS, ROUTES } from '../../../contract/routes/index.ts'
import type { Route } from '../../../contract/routes/route.ts'
import { defaultOf } from '../../../contract/settings.ts'
import { MANIFEST_FILE } from '../../../contract/paths.ts'
import type { Manifest } from '../../../contract/manifest.ts'
import type { CollectionName } from '../../../contract/model/model.ts'
import { copyOfBuiltFixture, REPO_ROOT, type TempProject } from '../../helpers/project.ts'

interface Rule {
  from: string
  to: string
  status?: number
  force?: boolean
  query?: Record<string, string>
  rate_limit?: Record<string, unknown>
}

/** The keys Netlify's rate limit rules in code take (window, limit, aggregation, and the optional action). */
const RATE_LIMIT_KEYS = ['window_limit', 'window_size', 'aggregate_by', 'action', 'to', 'algorithm']
const ROUTE_LIST = Object.entries(ROUTES) as [string, Route][]

let project: TempProject
/** The rules of netlify.toml alone, and of dist/_redirects followed by them (the order Netlify matches). */
let toml: Rule[]
let all: Rule[]
let manifest: Manifest

beforeAll(async () => {
  project = await copyOfBuiltFixture()
  await buildSite({ root: project.root })
  toml = await parse()
  all = await parse([join(project.dist, '_redirects')])
  manifest = JSON.parse(await readFile(join(project.dist, MANIFEST_FILE), 'utf8')) as Manifest
}, 60_000)
afterAll(() => project?.remove())

async function parse(redirectsFiles: string[] = []): Promise<Rule[]> {
  const { redirects, errors } = await parseAllRedirects({
    netlifyConfigPath: join(REPO_ROOT, 'netlify.toml'),
    redirectsFiles,
    configRedirects: [],
    minimal: true,
  })
  expect(errors.map(String)).toEqual([])
  return redirects as Rule[]
}

/**
 * Whether a rule applies to `path` with `query`: Netlify matches a `:name`
 * segment of the path by any segment, and named query parameters by value
 * (`:x` by any).
 */
function applies(rule: Rule, path: string, query: URLSearchParams): boolean {
  const segments = new RegExp(`^${rule.from.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+')}$`)
  const pathMatches = segments.test(path) || (rule.from.endsWith('/*') && path.startsWith(rule.from.slice(0, -1)))
  return (
    pathMatches &&
    Object.entries(rule.query ?? {}).every(
      ([name, value]) => query.has(name) && (value.startsWith(':') || query.get(name) === value),
    )
  )
}

/** The first rule that applies, its target with the path's segments in its placeholders, as Netlify rewrites. */
function firstMatch(rules: Rule[], path: string, query = ''): Rule | undefined {
  const rule = rules.find((r) => applies(r, path, new URLSearchParams(query)))
  if (!rule) return undefined
  const from = rule.from.split('/')
  const given = path.split('/')
  const to = rule.to.replace(/:([A-Za-z]+)/g, (whole, _name: string) => given[from.indexOf(whole)] ?? whole)
  return { ...rule, to }
}

/** The paths of the route with every parameter given (a published slug of the collection where it takes one). */
function concrete(route: Route): string[] {
  return documentedPaths(route, manifest.model).map(({ path, value }) => {
    const slug = value === undefined ? 'x' : (manifest.collections[value as CollectionName]![0]?.slug ?? 'x')
    const tag = manifest.model.names.flatMap((c) => manifest.collections[c]!.flatMap((r) => r.tags))[0]!
    return path
      .replace('{slug}', slug)
      .replace('{tag}', tag)
      .replace(/\{[^}]+\}/g, 'x')
  })
}

/** The path parameters of a concrete path of the route. */
function paramsOf(route: Route, path: string): Record<string, string> {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)
  const pattern = new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '([^/]+)')}$`)
  const values = pattern.exec(path)!.slice(1)
  return Object.fromEntries(names.map((name, i) => [name, values[i]!]))
}

describe('the rules of every route of the table', () => {
  it.each(ROUTE_LIST.filter(([, r]) => r.served === 'gateway' && !atTheEdge(r)))(
    '%s reaches the function (but for the requests a pre-rendered file answers)',
    (_, route) => {
      for (const path of concrete(route)) {
        if (!route.prerendered) {
          expect(firstMatch(all, path)?.to, path).toBe(`${FUNCTION_PREFIX}${path}`)
          continue
        }
        // The bare request is a file of the build; a parameter no file has goes to the function.
        expect(firstMatch(all, path)?.to, path).toBe(
          `/${route.prerendered.file(paramsOf(route, path), route.prerendered.fileParameter?.bare)}`,
        )
        for (const name of route.prerendered.computedBy)
          expect(firstMatch(all, path, `${name}=1`)?.to, `${path}?${name}=1`).toBe(`${FUNCTION_PREFIX}${path}`)
      }
    },
  )

  it.each(ROUTE_LIST.filter(([, r]) => r.served === 'file'))(
    '%s is a file: no rule sends it to the function',
    (_, route) => {
      for (const path of concrete(route))
        expect(firstMatch(all, path)?.to.startsWith(FUNCTION_PREFIX) ?? false, path).toBe(false)
    },
  )
})

describe('the internal build files', () => {
  it.each(INTERNAL_FOLDERS)('%s/ is hidden from the CDN: a forced rule, first, sends it to the function', (folder) => {
    for (const file of ['manifest.json', 'changes.json', 'search-index.bin', '_locales/de/changes.json']) {
      const path = `${folder}/${file}`
      const rule = firstMatch(all, path)
      // Forced: Netlify applies it although the file exists (unforced, the file would shadow it).
      expect(rule, path).toMatchObject({ to: `${FUNCTION_PREFIX}${folder}/:splat`, status: 200, force: true })
    }
    expect(all.findIndex((r) => r.from === `${folder}/*`)).toBe(0)
  })
})

describe('netlify.toml', () => {
  const edge = ROUTE_LIST.filter(([, r]) => atTheEdge(r))

  it.each(edge)(
    "%s reaches the function through netlify.toml's rule, under its budget's quota per client address",
    (_, route) => {
      const budget = BUDGETS[route.budgets!.find((name) => BUDGETS[name].edge)!]
      for (const path of concrete(route)) {
        // The first rule Netlify applies is netlify.toml's: no generated rule shadows it.
        const rule = firstMatch(all, path)
        expect(
          rule && toml.some((r) => r.from === rule.from && r.to === rule.to),
          `${path} matched ${rule?.from}`,
        ).toBe(true)
        const to = rule!.from.endsWith('/*') ? rule!.to.replace(':splat', path.slice(rule!.from.length - 1)) : rule!.to
        expect(to).toBe(`${FUNCTION_PREFIX}${path}`)
        expect(rule).toMatchObject({ status: 200, force: true })
        const limit = rule!.rate_limit!
        expect(Object.keys(limit).filter((k) => !RATE_LIMIT_KEYS.includes(k))).toEqual([])
        expect(limit).toEqual({
          window_limit: Number(defaultOf(budget.setting, 'netlify')),
          window_size: budget.windowSeconds,
          aggregate_by: ['ip', 'domain'],
        })
      }
    },
  )

  it('has a rate-limited rule for no path outside those routes, and a rule for each (no more than Netlify allows a site)', () => {
    const limited = toml.filter((rule) => rule.rate_limit)
    expect(limited.length).toBeGreaterThan(0)
    for (const rule of limited) {
      const served = ROUTE_LIST.filter(([, route]) =>
        concrete(route).some((path) => applies(rule, path, new URLSearchParams())),
      )
      expect(served.length, rule.from).toBeGreaterThan(0)
      expect(
        served.filter(([, route]) => !atTheEdge(route)).map(([id]) => id),
        rule.from,
      ).toEqual([])
      // Netlify's windows run from 1 to 180 seconds.
      expect(rule.rate_limit!.window_size).toBeGreaterThanOrEqual(1)
      expect(rule.rate_limit!.window_size).toBeLessThanOrEqual(180)
    }
    // Two rules in code on the free plan.
    expect(limited.length).toBeLessThanOrEqual(2)
  })

  it('keeps each [redirects.rate_limit] table the last part of its rule (a key under it would belong to it)', async () => {
    const text = await readFile(join(REPO_ROOT, 'netlify.toml'), 'utf8')
    const blocks = text.split(/^\[\[redirects\]\]\s*$/m).slice(1)
    expect(blocks).toHaveLength(2)
    for (const block of blocks) {
      const after = block.slice(block.indexOf('[redirects.rate_limit]'))
      const keys = [...after.matchAll(/^\s*([a-z_]+)\s*=/gm)].map((m) => m[1])
      expect(keys.sort()).toEqual(['aggregate_by', 'window_limit', 'window_size'])
    }
  })

  it('leaves the content rules first for what they serve', () => {
    expect(firstMatch(all, '/api/nope')?.to).toBe(`${FUNCTION_PREFIX}/api/:splat`)
  })
})
