/**
 * A multilingual build's Netlify rules as Netlify reads them (its own
 * redirect parser): `?locale=` reaches each locale's files, an item by any
 * of its slugs and its fallback as the gateway resolves them, any other
 * request of a locale the function; the bare paths' Language conditions
 * (Netlify's negotiation: the first language of Accept-Language) reach the
 * locale's files, but for the change feed, which only `?locale=` chooses.
 * Every file a rule names is in the build.
 */
import { access, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseAllRedirects } from '@netlify/redirect-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { FUNCTION_PREFIX } from '../../../contract/public-paths.ts'
import { copyOfLocaleFixture, type TempProject } from '../../helpers/project.ts'

interface Rule {
  from: string
  to: string
  query?: Record<string, string>
  conditions?: { Language?: string[] }
}

let project: TempProject
let rules: Rule[]

beforeAll(async () => {
  project = await copyOfLocaleFixture()
  await buildSite({ root: project.root })
  const { redirects, errors } = await parseAllRedirects({
    redirectsFiles: [join(project.dist, '_redirects')],
    configRedirects: [],
    minimal: true,
  })
  expect(errors.map(String)).toEqual([])
  rules = redirects as Rule[]
}, 120_000)
afterAll(() => project?.remove())

/** The target of the first rule that applies, as Netlify matches: path, named query values, the Language condition. */
function reach(path: string, query = '', language?: string): string | undefined {
  const params = new URLSearchParams(query)
  const rule = rules.find((r) => {
    const from = new RegExp(`^${r.from.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+')}$`)
    const pathMatches = from.test(path) || (r.from.endsWith('/*') && path.startsWith(r.from.slice(0, -1)))
    const queryMatches = Object.entries(r.query ?? {}).every(
      ([name, value]) => params.has(name) && (value.startsWith(':') || params.get(name) === value),
    )
    const languageMatches =
      !r.conditions?.Language || (language !== undefined && r.conditions.Language.includes(language))
    return pathMatches && queryMatches && languageMatches
  })
  return rule?.to.startsWith(FUNCTION_PREFIX) ? 'function' : rule?.to
}

describe('the Netlify rules of a multilingual build', () => {
  it.each([
    ['/api/blog-posts', 'locale=de&limit=5', '/api/blog-posts/_locales/de/_list/limit-5.json'],
    ['/api/blog-posts', 'locale=fr', '/api/blog-posts/_locales/fr/_list/limit-10.json'],
    ['/api/blog-posts', 'locale=de&page=2', 'function'],
    ['/api/blog-posts', 'locale=de&limit=0', 'function'],
    ['/api/blog-posts', 'locale=it', 'function'],
    ['/api/blog-posts', 'limit=5', '/api/blog-posts/_list/limit-5.json'],
    ['/api/blog-posts/data-contracts-in-ci', 'locale=de', '/api/blog-posts/_locales/de/datenvertraege-in-der-ci.json'],
    [
      '/api/blog-posts/datenvertraege-in-der-ci',
      'locale=fr',
      '/api/blog-posts/_locales/fr/contrats-de-donnees-en-ci.json',
    ],
    ['/api/blog-posts/dbt-tests-are-not-enough', 'locale=de', '/api/blog-posts/dbt-tests-are-not-enough.json'],
    ['/api/blog-posts/dbt-tests-are-not-enough', 'locale=fr', 'function'],
    ['/api/blog-posts/datenvertraege-in-der-ci', '', 'function'],
    ['/api/blog-posts/data-contracts-in-ci', '', '/api/blog-posts/data-contracts-in-ci.json'],
    ['/api/changes', 'locale=de', '/api/_locales/de/_changes.json'],
    ['/api/changes', 'locale=fr', '/api/_locales/fr/_changes.json'],
    ['/api/changes', 'locale=de&since=ZGU', 'function'],
    ['/api/changes', 'locale=fr&limit=5', 'function'],
    ['/api/changes', 'locale=it', 'function'],
    ['/api/changes', '', '/api/_changes.json'],
  ])('%s?%s → %s', async (path, query, target) => {
    expect(reach(path, query)).toBe(target)
    if (target !== 'function') await access(join(project.dist, target))
  })

  it('the bare paths follow the first language of Accept-Language to the locale files', async () => {
    expect(reach('/api/blog-posts', '', 'de')).toBe('/api/blog-posts/_locales/de/_list/limit-10.json')
    expect(reach('/api/blog-posts', 'limit=3', 'fr')).toBe('/api/blog-posts/_locales/fr/_list/limit-3.json')
    expect(reach('/api/blog-posts', '', 'en')).toBe('/api/blog-posts/_list/limit-10.json')
    expect(reach('/api/blog-posts/data-contracts-in-ci', '', 'fr')).toBe(
      '/api/blog-posts/_locales/fr/contrats-de-donnees-en-ci.json',
    )
    // No French version and French does not fall back: the default item, as the gateway negotiates it.
    expect(reach('/api/blog-posts/dbt-tests-are-not-enough', '', 'fr')).toBe(
      '/api/blog-posts/dbt-tests-are-not-enough.json',
    )
  })

  it("types each locale's feeds as the default's (RSS, Atom, JSON Feed), not by their extension", async () => {
    const headers = await readFile(join(project.dist, '_headers'), 'utf8')
    /** The header lines of the rule for `path`. */
    const ruleOf = (path: string) => {
      const lines = headers.split('\n')
      const at = lines.indexOf(path)
      expect(at, path).toBeGreaterThan(-1)
      const end = lines.findIndex((line, i) => i > at && !line.startsWith(' '))
      return lines.slice(at + 1, end).map((line) => line.trim().toLowerCase())
    }
    for (const [file, type] of [
      ['all.xml', 'application/rss+xml'],
      ['all.atom', 'application/atom+xml'],
      ['blog-posts.json', 'application/feed+json'],
    ] as const)
      for (const prefix of ['/feeds', '/feeds/de', '/feeds/fr'])
        expect(ruleOf(`${prefix}/${file}`).find((l) => l.startsWith('content-type:'))).toMatch(
          new RegExp(`^content-type: ${type.replace('+', '\\+')}`),
        )
  })

  it('never lets Accept-Language choose the change feed (a client’s cursor reads one feed)', () => {
    for (const language of ['de', 'fr', 'en']) expect(reach('/api/changes', '', language)).toBe('/api/_changes.json')
    expect(rules.filter((r) => r.from === '/api/changes' && r.conditions?.Language)).toEqual([])
  })
})
