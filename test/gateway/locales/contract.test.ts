/**
 * A multilingual build's answers, over a broad request matrix, match the
 * OpenAPI document it publishes (its own dist/openapi.json, through the
 * contract checker the single-language suites use): each locale's lists,
 * every item in every locale (by each of its slugs), answers chosen by
 * Accept-Language, `fields` with the locale fields, search, the change
 * feed, feeds, calendars and the agent reference per locale, and the errors
 * of a bad locale. A locale's feeds, calendars and reference are documented
 * in the words of their default locale's operation ("the same feeds under
 * /feeds/{locale}/"), not as paths of their own: each is checked against
 * that operation.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import type { OpenApiDocument } from '../../../build/openapi/document.ts'
import { ContractChecker, snapshotResponse } from '../../helpers/contract.ts'
import { useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfLocaleFixture } from '../../helpers/project.ts'

const ctx = useBuiltGateway(copyOfLocaleFixture)
const LOCALES = ['en', 'de', 'fr']
let checker: ContractChecker

beforeAll(async () => {
  const doc = JSON.parse(await readFile(join(ctx.project.dist, 'openapi.json'), 'utf8')) as OpenApiDocument
  checker = new ContractChecker(doc)
})

/**
 * Send a request and check its answer against the build's document (as the operation of `documented`,
 * where the document describes `url` in another's words); the response for further checks.
 */
async function call(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  documented = url,
): Promise<Response> {
  const response = await fetch(`${ctx.gateway.url}${url}`, { method, headers, redirect: 'manual' })
  const problems = checker.check(method, documented, await snapshotResponse(response))
  expect(problems, url).toEqual([])
  return response
}

const json = async <T>(url: string, headers: Record<string, string> = {}) => {
  const response = await call('GET', url, headers)
  expect(response.status, url).toBe(200)
  return (await response.json()) as T
}

describe.each(COLLECTION_NAMES)('contract of a multilingual build: %s', (collection) => {
  it.each(LOCALES)('lists in %s at several limits, pages and tags, and HEAD', async (locale) => {
    for (const query of ['', '&limit=1', '&limit=100', '&limit=2&page=2', '&limit=3&page=999', '&tag=no-such-tag'])
      expect((await call('GET', `/api/${collection}?locale=${locale}${query}`)).status).toBe(200)
    expect((await call('HEAD', `/api/${collection}?locale=${locale}&limit=3`)).status).toBe(200)
  })

  it('every item in every locale, by each of its slugs; 304 on a matching ETag', async () => {
    for (const locale of LOCALES) {
      const list = await json<{ data: { slug: string; translations?: { slug: string }[] }[] }>(
        `/api/${collection}?locale=${locale}&limit=100`,
      )
      for (const record of list.data)
        for (const slug of [record.slug, ...(record.translations ?? []).map((t) => t.slug)]) {
          const response = await call('GET', `/api/${collection}/${slug}?locale=${locale}`)
          expect([200, 404], `${slug} in ${locale}`).toContain(response.status)
        }
      const first = list.data[0]
      if (!first) continue
      const url = `/api/${collection}/${first.slug}?locale=${locale}`
      const etag = (await call('GET', url)).headers.get('etag')!
      expect((await call('GET', url, { 'if-none-match': etag })).status).toBe(304)
    }
  })

  it('answers chosen by Accept-Language, and fields of a translation', async () => {
    for (const language of ['de', 'fr-CH, de;q=0.5', 'it', '*'])
      expect((await call('GET', `/api/${collection}?limit=5`, { 'accept-language': language })).status).toBe(200)
    const [item] = (await json<{ data: { slug: string }[] }>(`/api/${collection}?locale=de&limit=1`)).data
    if (item) {
      expect((await call('GET', `/api/${collection}/${item.slug}`, { 'accept-language': 'de' })).status).toBe(200)
      const fields = await json<Record<string, unknown>>(
        `/api/${collection}/${item.slug}?locale=de&fields=url,locale,translations`,
      )
      expect(Object.keys(fields)).toEqual(['id', 'type', 'url', 'locale', 'translations'])
      const list = await json<{ data: Record<string, unknown>[] }>(`/api/${collection}?locale=de&fields=locale`)
      expect(Object.keys(list.data[0]!)).toEqual(['id', 'type', 'locale'])
    }
  })
})

describe('contract of a multilingual build: search, changes, feeds, calendars, errors', () => {
  it('search in each locale', async () => {
    for (const locale of LOCALES)
      for (const query of ['daten', 'contrat', 'data contracts'])
        expect((await call('GET', `/api/search?q=${encodeURIComponent(query)}&locale=${locale}`)).status).toBe(200)
    expect((await call('GET', '/api/search?q=daten', { 'accept-language': 'de' })).status).toBe(200)
  })

  it("each locale's change feed: the first page, a cursor, a page", async () => {
    for (const query of ['', '?locale=de', '?locale=fr'])
      expect((await call('GET', `/api/changes${query}${query ? '&' : '?'}limit=2`)).status).toBe(200)
    const de = await json<{ meta: { next_cursor: string } }>('/api/changes?locale=de')
    expect((await call('GET', `/api/changes?locale=de&since=${de.meta.next_cursor}`)).status).toBe(200)
  })

  it("each locale's feeds, calendars and agent reference, as their default locale's operation", async () => {
    for (const prefix of ['', '/de', '/fr']) {
      for (const file of ['all.xml', 'all.atom', 'all.json', 'blog-posts.json', 'events.atom'])
        expect((await call('GET', `/feeds${prefix}/${file}`, {}, `/feeds/${file}`)).status).toBe(200)
      for (const calendar of ['events', 'webinars'])
        expect((await call('GET', `/calendar${prefix}/${calendar}.ics`, {}, `/calendar/${calendar}.ics`)).status).toBe(
          200,
        )
    }
    const events = await json<{ data: { slug: string }[] }>('/api/events?locale=fr')
    const slug = events.data[0]!.slug
    expect((await call('GET', `/calendar/fr/events/${slug}.ics`, {}, `/calendar/events/${slug}.ics`)).status).toBe(200)
    for (const file of ['/llms-full.txt', '/llms-full.de.txt', '/llms-full.fr.txt'])
      expect((await call('GET', file, {}, '/llms-full.txt')).status).toBe(200)
  })

  it('a bad or unknown locale is a 400; an item a locale lacks, a 404', async () => {
    for (const url of [
      '/api/blog-posts?locale=it',
      '/api/blog-posts?locale=x_1',
      '/api/blog-posts/data-contracts-in-ci?locale=it',
      '/api/search?q=daten&locale=it',
      '/api/changes?locale=it',
    ])
      expect((await call('GET', url)).status, url).toBe(400)
    expect((await call('GET', '/api/blog-posts/dbt-tests-are-not-enough?locale=fr')).status).toBe(404)
  })
})
