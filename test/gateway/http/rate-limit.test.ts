/**
 * Rate limiting of the dynamic routes over real HTTP: 429 problem with
 * Retry-After and the IETF RateLimit fields, keyed by client address (proxy
 * headers only when trusted) and by credential; static reads never limited.
 * The budget of computed answers: computed-budget.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { ROUTES } from '../../../contract/routes/index.ts'
import { readSettings } from '../../../contract/settings.ts'
import { Budgets } from '../../../gateway/http/budgets.ts'
import { RateLimiter } from '../../../gateway/http/rate-limit.ts'
import { RateLimiterMemory } from 'rate-limiter-flexible'
import { MCP_HEADERS, startBuiltGateway, startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { problemDefect } from '../../helpers/problem-assert.ts'
import { MCP_PATH, TOKEN_PATH } from '../../../contract/public-paths.ts'
import { rateLimitFields } from '../../helpers/ratelimit-fields.ts'
import { AGENT } from './agent.ts'

let project: TempProject
let gateway: TestGateway | undefined

beforeAll(async () => {
  project = await copyOfFixtureContent()
  await buildSite({ root: project.root })
})
afterEach(async () => {
  await gateway?.close()
  gateway = undefined
})
afterAll(() => project?.remove())

async function start(env: Record<string, string>) {
  gateway = await startGateway(project.dist, { env: { RATE_LIMIT_PER_MINUTE: '3', ...env } })
  return gateway
}

const post = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${gateway!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: 'grant_type=client_credentials',
  })

describe.each([TOKEN_PATH, MCP_PATH])('%s', (path) => {
  it('allows the quota, then answers 429 with Retry-After and RateLimit fields', async () => {
    await start({})
    for (let i = 0; i < 3; i++) {
      const res = await post(path)
      expect(res.status).not.toBe(429)
      expect(rateLimitFields(res.headers.get('ratelimit-policy'))).toEqual({ ip: { q: 3, w: 60 } })
      expect(rateLimitFields(res.headers.get('ratelimit')).ip!.r).toBe(2 - i)
      await res.body?.cancel()
    }
    const res = await post(path)
    const text = await res.text()
    expect(res.status).toBe(429)
    expect(problemDefect(429, res.headers.get('content-type'), text)).toBeUndefined()
    expect(JSON.parse(text).type).toBe('/problems/rate-limited')
    const retryAfter = Number(res.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    const limit = rateLimitFields(res.headers.get('ratelimit')).ip!
    expect(limit).toEqual({ r: 0, t: retryAfter })
    // Browsers can read the fields (CORS exposes them).
    expect(res.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Policy/)
  })
})

describe('keys', () => {
  it('never limits static reads or health', async () => {
    await start({ RATE_LIMIT_PER_MINUTE: '1' })
    for (let i = 0; i < 5; i++) {
      expect((await fetch(`${gateway!.url}/api/blog-posts?limit=1`)).status).toBe(200)
      expect((await fetch(`${gateway!.url}/api/health`)).status).toBe(200)
    }
  })

  it('ignores X-Forwarded-For unless told to trust it (no spoofing past the limit)', async () => {
    await start({})
    for (let i = 0; i < 3; i++) await (await post(TOKEN_PATH, { 'x-forwarded-for': `203.0.113.${i}` })).body?.cancel()
    expect((await post(TOKEN_PATH, { 'x-forwarded-for': '203.0.113.99' })).status).toBe(429)
    expect((await post(TOKEN_PATH, { 'x-nf-client-connection-ip': '203.0.113.98' })).status).toBe(429)
  })

  it('behind a trusted proxy, limits each client address separately (rightmost X-Forwarded-For hop)', async () => {
    await start({ TRUST_PROXY: 'x-forwarded-for' })
    for (let i = 0; i < 3; i++)
      await (await post(TOKEN_PATH, { 'x-forwarded-for': '198.51.100.7, 203.0.113.1' })).body?.cancel()
    expect((await post(TOKEN_PATH, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(429)
    // A client prepending its own address gets nothing: the proxy's hop is the key.
    expect((await post(TOKEN_PATH, { 'x-forwarded-for': '1.2.3.4, 203.0.113.1' })).status).toBe(429)
    expect((await post(TOKEN_PATH, { 'x-forwarded-for': '203.0.113.2' })).status).not.toBe(429)
  })

  it('on Netlify, keys by x-nf-client-connection-ip', async () => {
    await start({ TRUST_PROXY: 'netlify' })
    for (let i = 0; i < 3; i++)
      await (await post(MCP_PATH, { 'x-nf-client-connection-ip': '192.0.2.10' })).body?.cancel()
    expect((await post(MCP_PATH, { 'x-nf-client-connection-ip': '192.0.2.10' })).status).toBe(429)
    expect((await post(MCP_PATH, { 'x-nf-client-connection-ip': '192.0.2.11' })).status).not.toBe(429)
  })

  it('limits one credential used from many addresses', async () => {
    await start({ TRUST_PROXY: 'netlify' })
    const auth = { authorization: 'Bearer the-same-key' }
    for (let i = 0; i < 3; i++) {
      const res = await post(MCP_PATH, { ...auth, 'x-nf-client-connection-ip': `192.0.2.${i}` })
      expect(Object.keys(rateLimitFields(res.headers.get('ratelimit-policy')))).toEqual(['ip', 'credential'])
      await res.body?.cancel()
    }
    const res = await post(MCP_PATH, { ...auth, 'x-nf-client-connection-ip': '192.0.2.50' })
    expect(res.status).toBe(429)
    expect(rateLimitFields(res.headers.get('ratelimit')).credential!.r).toBe(0)
    expect(JSON.parse(await res.text()).detail).toMatch(/credential/)
    // Another credential from a fresh address is fine.
    expect(
      (await post(MCP_PATH, { authorization: 'Bearer another', 'x-nf-client-connection-ip': '192.0.2.51' })).status,
    ).not.toBe(429)
  })

  it('RATE_LIMIT_PER_MINUTE=0 turns the limiter off', async () => {
    await start({ RATE_LIMIT_PER_MINUTE: '0' })
    for (let i = 0; i < 6; i++) {
      const res = await post(TOKEN_PATH)
      expect(res.status).not.toBe(429)
      expect(res.headers.get('ratelimit')).toBeNull()
      await res.body?.cancel()
    }
  })
})

describe('on the real routes', () => {
  it('puts the RateLimit fields on token responses, MCP results and their errors', async () => {
    const full = await startBuiltGateway({ ...AGENT, env: { RATE_LIMIT_PER_MINUTE: '50' } })
    try {
      const basic = Buffer.from(`agent:${full.secrets.agent!}`).toString('base64')
      const token = await fetch(`${full.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
        body: 'grant_type=client_credentials&scope=mcp.tools.invoke',
      })
      expect(token.status).toBe(200)
      const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })
      const ok = await fetch(`${full.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${full.keys.agent!}` },
        body: ping,
      })
      expect(ok.status).toBe(200)
      const denied = await fetch(`${full.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: ping })
      expect(denied.status).toBe(401)
      for (const res of [token, ok, denied]) {
        expect(rateLimitFields(res.headers.get('ratelimit-policy')).ip).toEqual({ q: 50, w: 60 })
        expect(rateLimitFields(res.headers.get('ratelimit')).ip!.r).toBeLessThan(50)
      }
    } finally {
      await full.close()
    }
  })
})

describe('RateLimiter', () => {
  it('opens a new window when the clock has passed the old one', async () => {
    let now = 1_000_020_000
    const limiter = new RateLimiter({ name: 't1', limit: 2, windowSeconds: 60, now: () => now })
    expect(await limiter.take('a')).toEqual({ allowed: true, remaining: 1, resetSeconds: 60 })
    now += 30_000
    expect(await limiter.take('a')).toEqual({ allowed: true, remaining: 0, resetSeconds: 30 })
    expect((await limiter.take('a')).allowed).toBe(false)
    now += 30_000
    expect(await limiter.take('a')).toEqual({ allowed: true, remaining: 1, resetSeconds: 60 })
  })

  it('charges several at once, all or none: refused, the charge counts nothing', async () => {
    const limiter = new RateLimiter({ name: 't2', limit: 5, windowSeconds: 60 })
    expect(await limiter.take('b', 3)).toMatchObject({ allowed: true, remaining: 2 })
    expect(await limiter.take('b', 3)).toMatchObject({ allowed: false, remaining: 2 })
    expect(await limiter.take('b', 2)).toMatchObject({ allowed: true, remaining: 0 })
    expect(await limiter.take('b')).toMatchObject({ allowed: false, remaining: 0 })
  })

  it('does not count made-up credentials from an address already over its limit', async () => {
    const keys = new Set<string>()
    // rate-limiter-flexible's own memory limiter, telling which keys it was asked to keep.
    class Watched extends RateLimiterMemory {
      override consume(key: string | number, points?: number, options?: Record<string, unknown>) {
        keys.add(String(key))
        return super.consume(key, points, options)
      }
    }
    const budgets = new Budgets(readSettings({ RATE_LIMIT_PER_MINUTE: '3' }, 'start'), undefined, (o) => new Watched(o))
    const charge = budgets.chargeOf(ROUTES.mcp)!
    const verdicts = []
    for (let i = 0; i < 40; i++) verdicts.push(await charge({ ip: '192.0.2.1', authorization: `Bearer made-up-${i}` }))
    expect(verdicts.filter((v) => !v.allowed)).toHaveLength(37)
    // One address window and the three credentials that got through; nothing for the 37 refused.
    expect(keys.size).toBe(4)
  })
})
