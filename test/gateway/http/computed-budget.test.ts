/**
 * The budget of the answers the gateway computes (search, the change feed
 * after a cursor, list queries no pre-rendered file answers): per client
 * address, counted on the app's answers and the fast path's repeats alike,
 * 429 past it with Retry-After and the RateLimit fields, as openapi.json
 * states; pre-rendered answers never draw from it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { problemDefect } from '../../helpers/problem-assert.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { rateLimitFields } from '../../helpers/ratelimit-fields.ts'

let project: TempProject
let gateway: TestGateway
let address = 0
/** A client address of its own for each test (the gateway trusts X-Forwarded-For here, as behind a proxy). */
const client = () => ({ 'x-forwarded-for': `198.51.100.${++address}` })

beforeAll(async () => {
  project = await copyOfFixtureContent()
  await buildSite({ root: project.root })
  gateway = await startGateway(project.dist, {
    env: { COMPUTED_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'x-forwarded-for' },
  })
}, 60_000)
afterAll(async () => {
  await gateway?.close()
  await project?.remove()
})

const get = (path: string, headers: Record<string, string>) => fetch(`${gateway.url}${path}`, { headers })

describe('the budget of computed answers', () => {
  it('allows a client 3 searches a minute, then answers 429 with Retry-After and the RateLimit fields', async () => {
    const from = client()
    // The first answer comes from the app, the repeats of the same search from the fast path: both count.
    for (let i = 0; i < 3; i++) {
      const res = await get('/api/search?q=data', from)
      expect(res.status).toBe(200)
      expect(rateLimitFields(res.headers.get('ratelimit-policy'))).toEqual({ computed: { q: 3, w: 60 } })
      expect(rateLimitFields(res.headers.get('ratelimit')).computed!.r).toBe(2 - i)
      await assertMatchesContract('GET', '/api/search?q=data', res)
    }
    const refused = await get('/api/search?q=data', from)
    const text = await refused.clone().text()
    expect(refused.status).toBe(429)
    expect(problemDefect(429, refused.headers.get('content-type'), text)).toBeUndefined()
    expect(JSON.parse(text)).toMatchObject({
      type: '/problems/rate-limited',
      detail: expect.stringMatching(/client address/),
    })
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(rateLimitFields(refused.headers.get('ratelimit')).computed).toEqual({ r: 0, t: retryAfter })
    await assertMatchesContract('GET', '/api/search?q=data', refused)
    // Another search, a list no file has, a cursor of the change feed: the same budget.
    for (const path of ['/api/search?q=ledger', '/api/blog-posts?page=2', '/api/changes?limit=1'])
      expect((await get(path, from)).status, path).toBe(429)
  })

  it('never counts what a pre-rendered file answers', async () => {
    const from = client()
    for (let i = 0; i < 6; i++) {
      for (const path of [
        '/api/blog-posts?limit=5',
        '/api/blog-posts',
        '/api/changes',
        '/api/health',
        '/openapi.json',
      ]) {
        const res = await get(path, from)
        expect(res.status, path).toBe(200)
        expect(res.headers.get('ratelimit'), path).toBeNull()
        await res.body?.cancel()
      }
    }
    expect((await get('/api/search?q=data', from)).status).toBe(200)
  })

  it('keeps each client address to its own budget', async () => {
    const greedy = client()
    for (let i = 0; i < 4; i++) await (await get('/api/events?page=2', greedy)).body?.cancel()
    expect((await get('/api/events?page=2', greedy)).status).toBe(429)
    expect((await get('/api/events?page=2', client())).status).toBe(200)
  })

  it('is off at COMPUTED_RATE_LIMIT_PER_MINUTE=0', async () => {
    const unlimited = await startGateway(project.dist, {
      filesDir: `${project.root}/unlimited`,
      env: { COMPUTED_RATE_LIMIT_PER_MINUTE: '0' },
    })
    try {
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${unlimited.url}/api/search?q=data`)
        expect(res.status).toBe(200)
        expect(res.headers.get('ratelimit')).toBeNull()
        await res.body?.cancel()
      }
    } finally {
      await unlimited.close()
    }
  })
})
