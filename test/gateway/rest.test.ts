import { describe, expect, it } from 'vitest'
import { COLLECTION_NAMES } from '../helpers/site.ts'
import { useBuiltGateway } from '../helpers/gateway.ts'
import { copyOfBuiltFixture } from '../helpers/project.ts'
import { HEALTH_PATH } from '../../contract/public-paths.ts'
import { API_VERSION } from '../../contract/lifecycle.ts'

const ctx = useBuiltGateway(copyOfBuiltFixture)
const get = (path: string, init?: RequestInit) => fetch(`${ctx.gateway.url}${path}`, init)

async function expectProblem(res: Response, status: number, type: string) {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
  const body = await res.json()
  expect(body).toMatchObject({ type: `/problems/${type}`, status })
  expect(typeof body.title).toBe('string')
  expect(typeof body.detail).toBe('string')
  expect(JSON.stringify(body)).not.toMatch(/\.ts:\d+|node_modules|at [A-Za-z]+ \(/)
  return body
}

describe('health', () => {
  it('reports the build, never cached', async () => {
    const res = await get(HEALTH_PATH)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = await res.json()
    expect(body).toMatchObject({
      status: 'ok',
      version: API_VERSION,
      build: { id: expect.any(String), content_updated_at: expect.any(String) },
    })
    expect(Object.keys(body.build.counts)).toEqual([...COLLECTION_NAMES])
    // Named for what it is: the newest updated_at of any item, not a build time (builds are deterministic).
    expect(body.build).not.toHaveProperty('built_at')
    const updated: string[] = []
    for (const collection of COLLECTION_NAMES) {
      const list = (await (await get(`/api/${collection}?limit=100`)).json()) as { data: { updated_at: string }[] }
      updated.push(...list.data.map((item) => new Date(item.updated_at).toISOString()))
    }
    expect(new Date(body.build.content_updated_at).toISOString()).toBe(updated.sort().at(-1))
    const head = await get(HEALTH_PATH, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })
})

describe.each(COLLECTION_NAMES)('%s', (collection) => {
  it.each([
    ['', 10],
    ['?limit=1', 1],
    ['?limit=10', 10],
    ['?limit=100', 100],
  ])('lists %s with limit %i', async (query, limit) => {
    const res = await get(`/api/${collection}${query}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{32}"$/)
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+.*stale-while-revalidate=\d+/)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const body = await res.json()
    const total = Number(res.headers.get('x-total-count'))
    expect(body.meta).toEqual({ limit, page: 1, count: Math.min(limit, total), total, pages: Math.ceil(total / limit) })
    expect(body.data).toHaveLength(Math.min(limit, total))
    expect(body.links.self).toBe(`/api/${collection}?limit=${limit}`)
    expect(body.links.prev).toBeNull()
    for (const item of body.data) expect(item).not.toHaveProperty('body')
  })

  it('serves page 2 with Link headers for next and prev', async () => {
    const all = await (await get(`/api/${collection}?limit=100`)).json()
    const res = await get(`/api/${collection}?limit=2&page=2`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.data.map((d: { slug: string }) => d.slug)).toEqual(
      all.data.slice(2, 4).map((d: { slug: string }) => d.slug),
    )
    expect(body.links.prev).toBe(`/api/${collection}?limit=2`)
    expect(res.headers.get('link')).toContain(`</api/${collection}?limit=2>; rel="prev"`)
    if (all.meta.total > 4) expect(res.headers.get('link')).toContain(`</api/${collection}?limit=2&page=3>; rel="next"`)
  })

  it('returns a full item and 404 for a missing slug', async () => {
    const list = await (await get(`/api/${collection}?limit=1`)).json()
    const slug = list.data[0].slug
    const res = await get(`/api/${collection}/${slug}`)
    expect(res.status).toBe(200)
    const item = await res.json()
    expect(item).toMatchObject({
      ...list.data[0],
      body: { html: expect.any(String), markdown: expect.any(String), text: expect.any(String) },
    })
    await expectProblem(await get(`/api/${collection}/no-such-slug`), 404, 'not-found')
  })
})

describe('filters', () => {
  it('filters by tag, with the tag in every link', async () => {
    const all = await (await get('/api/blog-posts?limit=100')).json()
    const tag = all.data[0].tags[0] as string
    const expected = all.data.filter((d: { tags: string[] }) => d.tags.includes(tag))
    const res = await get(`/api/blog-posts?tag=${tag}&limit=1`)
    const body = await res.json()
    expect(body.meta.total).toBe(expected.length)
    expect(res.headers.get('x-total-count')).toBe(String(expected.length))
    expect(body.data[0].slug).toBe(expected[0].slug)
    expect(body.links.self).toBe(`/api/blog-posts?limit=1&tag=${tag}`)
    if (expected.length > 1) expect(body.links.next).toBe(`/api/blog-posts?limit=1&page=2&tag=${tag}`)
  })

  it('matches a tag without regard to case: tag=DBT is tag=dbt, links included (one rule with MCP and the OpenAPI document)', async () => {
    const all = await (await get('/api/blog-posts?limit=100')).json()
    const tag = all.data[0].tags[0] as string
    const lower = await (await get(`/api/blog-posts?tag=${tag}`)).text()
    const upper = await get(`/api/blog-posts?tag=${tag.toUpperCase()}`)
    expect(upper.status).toBe(200)
    expect(await upper.text()).toBe(lower)
    expect(JSON.parse(lower).meta.total).toBeGreaterThan(0)
  })

  it('answers an unknown tag with an empty list, and a page past the end with no data', async () => {
    const none = await (await get('/api/events?tag=no-such-tag')).json()
    expect(none.meta).toEqual({ limit: 10, page: 1, count: 0, total: 0, pages: 0 })
    const past = await (await get('/api/events?page=50')).json()
    expect(past.data).toEqual([])
    expect(past.links.next).toBeNull()
  })

  it('ignores unknown query parameters', async () => {
    const a = await get('/api/webinars?limit=3')
    const b = await get('/api/webinars?limit=3&utm_source=newsletter&foo=')
    expect(await b.text()).toBe(await a.text())
  })
})

describe('bad input', () => {
  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=', 'limit'],
    ['limit=5&limit=6', 'limit'],
    ['limit=%201', 'limit'],
    ['limit=1e1', 'limit'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=abc', 'page'],
    ['page=', 'page'],
    ['page=2&page=3', 'page'],
    ['tag=', 'tag'],
    ['tag=Not%20A%20Tag', 'tag'],
    ['tag=a&tag=b', 'tag'],
  ])('?%s → 400 naming %s', async (query, parameter) => {
    const body = await expectProblem(await get(`/api/blog-posts?${query}`), 400, 'invalid-parameter')
    expect(body.errors).toEqual([{ parameter, message: expect.any(String) }])
    if (parameter === 'limit') expect(body.errors[0].message).toContain('from 1 to 100')
    expect(body.instance).toBe('/api/blog-posts')
  })

  it('names every bad parameter at once', async () => {
    const body = await expectProblem(await get('/api/blog-posts?limit=0&page=x'), 400, 'invalid-parameter')
    expect(body.errors.map((e: { parameter: string }) => e.parameter)).toEqual(['limit', 'page'])
  })

  it('404s unknown collections and paths as problems', async () => {
    await expectProblem(await get('/api/podcasts'), 404, 'not-found')
    await expectProblem(await get('/api/podcasts/x'), 404, 'not-found')
    await expectProblem(await get('/no/such/page'), 404, 'not-found')
    await expectProblem(await get('/api/blog-posts/..%2F..%2Fpackage.json'), 404, 'not-found')
  })

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s → 405 with Allow', async (method) => {
    const res = await get('/api/blog-posts', { method })
    await expectProblem(res, 405, 'method-not-allowed')
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  it('406 when Accept rules out JSON', async () => {
    await expectProblem(await get('/api/blog-posts', { headers: { accept: 'text/html' } }), 406, 'not-acceptable')
    expect((await get('/api/blog-posts', { headers: { accept: 'text/html, application/*;q=0.5' } })).status).toBe(200)
  })
})

describe('HTTP semantics', () => {
  it('answers a matching If-None-Match with 304 and no body', async () => {
    for (const path of ['/api/blog-posts', '/api/blog-posts?limit=3&page=2', '/api/case-studies?limit=1']) {
      const first = await get(path)
      const etag = first.headers.get('etag')!
      const again = await get(path, { headers: { 'if-none-match': `"other", ${etag}` } })
      expect(again.status).toBe(304)
      expect(again.headers.get('etag')).toBe(etag)
      expect(await again.text()).toBe('')
      expect((await get(path, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200)
    }
  })

  it('answers HEAD with the GET headers and no body', async () => {
    const getRes = await get('/api/events?limit=5')
    const head = await get('/api/events?limit=5', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('etag')).toBe(getRes.headers.get('etag'))
    expect(head.headers.get('content-length')).toBe(String((await getRes.arrayBuffer()).byteLength))
    expect(await head.text()).toBe('')
  })

  it('answers the CORS preflight', async () => {
    const res = await get('/api/blog-posts', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-methods')).toContain('GET')
    expect(res.headers.get('access-control-allow-headers')).toContain('Authorization')
    expect(res.headers.get('access-control-max-age')).toBe('86400')
  })

  it('exposes pagination headers to browsers and sets security headers', async () => {
    const res = await get('/api/blog-posts?limit=2')
    for (const name of ['ETag', 'Link', 'X-Total-Count', 'X-Request-Id'])
      expect(res.headers.get('access-control-expose-headers')).toContain(name)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(res.headers.get('server')).toBeNull()
    expect(res.headers.get('x-powered-by')).toBeNull()
  })

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    expect((await get(HEALTH_PATH, { headers: { 'x-request-id': 'abc-123' } })).headers.get('x-request-id')).toBe(
      'abc-123',
    )
    const res = await get(HEALTH_PATH, { headers: { 'x-request-id': 'bad id\twith spaces' } })
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('gives the same bytes with or without an Authorization header', async () => {
    const plain = await (await get('/api/blog-posts?limit=4')).text()
    const withToken = await (
      await get('/api/blog-posts?limit=4', { headers: { authorization: 'Bearer whatever' } })
    ).text()
    expect(withToken).toBe(plain)
  })
})

describe('dist files that are not documents', () => {
  it('never serves Netlify configuration files', async () => {
    for (const path of ['/_redirects', '/_headers']) await expectProblem(await get(path), 404, 'not-found')
  })
})
