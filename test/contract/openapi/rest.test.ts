/**
 * Every answer of the gateway, errors included, over a broad request matrix,
 * matches the OpenAPI document the build publishes.
 */
import { describe, expect, it } from 'vitest'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { PROBLEM_TYPES } from '../../../contract/problems.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfBuiltFixture } from '../../helpers/project.ts'
import {
  API_CATALOG_PATH,
  CHANGES_PATH,
  DOCS_PATH,
  HEALTH_PATH,
  LLMS_FULL_PATH,
  LLMS_PATH,
  OPENAPI_PATH,
  SEARCH_PATH,
} from '../../../contract/public-paths.ts'

const ctx = useBuiltGateway(copyOfBuiltFixture)

/** Send a request and check its answer against the contract; returns the response for further checks. */
async function call(method: string, url: string, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(`${ctx.gateway.url}${url}`, { method, headers, redirect: 'manual' })
  await assertMatchesContract(method, url, response)
  return response
}

describe('contract: collections', () => {
  it.each(COLLECTION_NAMES)('%s: lists at several limits, pages and tags', async (collection) => {
    for (const query of [
      '',
      '?limit=1',
      '?limit=5',
      '?limit=100',
      '?limit=2&page=2',
      '?limit=3&page=999',
      '?tag=no-such-tag',
      '?unknown=1',
    ]) {
      expect((await call('GET', `/api/${collection}${query}`)).status).toBe(200)
    }
    const list = (await (await call('GET', `/api/${collection}?limit=100`)).json()) as { data: { tags: string[] }[] }
    const tag = list.data.flatMap((r) => r.tags)[0]
    if (tag) expect((await call('GET', `/api/${collection}?tag=${tag}&limit=2`)).status).toBe(200)
    expect((await call('HEAD', `/api/${collection}?limit=3`)).status).toBe(200)
  })

  it.each(COLLECTION_NAMES)('%s: every item, and 304 on a matching ETag', async (collection) => {
    const list = (await (await fetch(`${ctx.gateway.url}/api/${collection}?limit=100`)).json()) as {
      data: { slug: string }[]
    }
    expect(list.data.length).toBeGreaterThan(0)
    for (const { slug } of list.data) expect((await call('GET', `/api/${collection}/${slug}`)).status).toBe(200)
    const first = await call('GET', `/api/${collection}/${list.data[0]!.slug}`)
    const etag = first.headers.get('etag')!
    expect((await call('GET', `/api/${collection}/${list.data[0]!.slug}`, { 'if-none-match': etag })).status).toBe(304)
    const page = await call('GET', `/api/${collection}?limit=2&page=2`)
    expect(
      (await call('GET', `/api/${collection}?limit=2&page=2`, { 'if-none-match': page.headers.get('etag')! })).status,
    ).toBe(304)
  })
})

describe('contract: errors', () => {
  it('400 for every kind of bad limit, page and tag', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=-1',
      'limit=1.5',
      'limit=abc',
      'limit=',
      'limit=1&limit=2',
      'page=0',
      'page=x',
      'tag=Not_A_Tag',
      'tag=a&tag=b',
      'limit=0&page=0',
    ]) {
      expect((await call('GET', `/api/blog-posts?${query}`)).status, query).toBe(400)
    }
  })

  it('404 for unknown collections, slugs and paths', async () => {
    for (const url of [
      '/api/nope',
      '/api/nope/x',
      '/api/blog-posts/no-such-post',
      '/api/events/UPPER',
      '/nowhere',
      '/problems/no-such-problem',
      '/api/health/x',
      '/api/search/x',
      '/feeds/nope.xml',
      '/calendar/blog-posts.ics',
      '/calendar/events/nope.ics',
    ]) {
      expect((await call('GET', url)).status, url).toBe(404)
    }
  })

  it('405 with Allow for other methods', async () => {
    for (const [method, url] of [
      ['POST', '/api/blog-posts'],
      ['PUT', '/api/blog-posts/x'],
      ['DELETE', '/api/events'],
      ['POST', HEALTH_PATH],
      ['PATCH', OPENAPI_PATH],
      ['POST', DOCS_PATH],
      ['DELETE', API_CATALOG_PATH],
      ['POST', SEARCH_PATH],
      ['DELETE', CHANGES_PATH],
      ['PUT', '/feeds/all.json'],
    ] as const) {
      const response = await call(method, url)
      expect(response.status, `${method} ${url}`).toBe(405)
      expect(response.headers.get('allow')).toMatch(/GET/)
    }
  })

  it('406 when Accept rules out JSON', async () => {
    expect((await call('GET', '/api/webinars', { accept: 'text/html' })).status).toBe(406)
  })
})

describe('contract: health, documents and preflight', () => {
  it('health on GET and HEAD', async () => {
    expect((await call('GET', HEALTH_PATH)).status).toBe(200)
    expect((await call('HEAD', HEALTH_PATH)).status).toBe(200)
  })

  it('every discovery document, the problem pages and their 304s', async () => {
    for (const url of [
      OPENAPI_PATH,
      DOCS_PATH,
      LLMS_PATH,
      LLMS_FULL_PATH,
      API_CATALOG_PATH,
      '/feeds/all.xml',
      '/feeds/events.atom',
      '/feeds/webinars.json',
      '/calendar/events.ics',
    ]) {
      const response = await call('GET', url)
      expect(response.status, url).toBe(200)
      expect((await call('GET', url, { 'if-none-match': response.headers.get('etag')! })).status, url).toBe(304)
    }
    expect((await call('HEAD', API_CATALOG_PATH)).status).toBe(200)
    expect((await call('GET', '/docs')).status).toBe(308)
    for (const name of Object.keys(PROBLEM_TYPES))
      expect((await call('GET', `/problems/${name}`)).status, name).toBe(200)
  })

  it('CORS preflight', async () => {
    expect(
      (
        await call('OPTIONS', '/api/blog-posts', {
          origin: 'https://site.example',
          'access-control-request-method': 'GET',
        })
      ).status,
    ).toBe(204)
  })
})
