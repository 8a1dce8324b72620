/**
 * Failed authentications over real HTTP: bad API keys on /mcp and wrong
 * client secrets at /oauth/token are limited per client address and per
 * identifier (key prefix, client_id) far below the ordinary rate limit, with
 * 429, Retry-After and the RateLimit fields; good credentials keep working.
 * The counts live in the shared state store, so two gateway processes on
 * one store see the same failures. (The sign-in page, the third user of the
 * same mechanism, is tested in test/gateway/auth/sign-in-pages.test.ts.)
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { createFailureThrottle, FAILURE_POLICIES } from '../../../gateway/auth/failed-auth.ts'
import { openFileStore } from '../../../gateway/auth/store/file-store.ts'
import { generateApiKey } from '../../../gateway/auth/api-key.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { MCP_HEADERS, startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { SANDBOX_CLIENT } from '../../../contract/sandbox.ts'
import { MCP_PATH, TOKEN_PATH } from '../../../contract/public-paths.ts'
import { rateLimitFields } from '../../helpers/ratelimit-fields.ts'

const KEY = FAILURE_POLICIES['api-key']
const SECRET = FAILURE_POLICIES['client-secret']
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })

let full: BuiltGateway
let sequence = 0
/** A fresh client address per use (the gateway trusts X-Forwarded-For here, as behind a proxy). */
const freshAddress = () => `198.51.${Math.floor(++sequence / 250)}.${sequence % 250}`

beforeAll(async () => {
  // The ordinary limiter off: only the failed-authentication limits act.
  full = await startBuiltGateway({
    env: { RATE_LIMIT_PER_MINUTE: '0', TRUST_PROXY: 'x-forwarded-for' },
    keys: { agent: 'agent.mcp' },
    clients: { agent: ['mcp.tools.invoke'] },
  })
}, 120_000)
afterAll(() => full?.close())

const mcp = (key: string, address: string) =>
  fetch(`${full.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${key}`, 'x-forwarded-for': address },
    body: PING,
  })

const token = (clientId: string, secret: string, address: string) =>
  fetch(`${full.url}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      'x-forwarded-for': address,
    },
    body: 'grant_type=client_credentials',
  })

async function expectThrottled(res: Response, policy: string, url: string, method = 'POST'): Promise<void> {
  expect(res.status).toBe(429)
  await assertMatchesContract(method, url, res)
  const body = (await res.json()) as { type: string; detail: string }
  expect(body.type).toBe('/problems/rate-limited')
  expect(body.detail).toMatch(/Too many failed authentications/)
  const retryAfter = Number(res.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(KEY.windowSeconds)
  expect(rateLimitFields(res.headers.get('ratelimit'))[policy]).toEqual({ r: 0, t: retryAfter })
  expect(rateLimitFields(res.headers.get('ratelimit-policy'))[policy]?.w).toBe(KEY.windowSeconds)
}

describe('bad API keys on /mcp', () => {
  it(`from one address: ${KEY.perAddress} get 401, then 429 for any key from it, even a good one; other addresses are not slowed`, async () => {
    const address = freshAddress()
    for (let i = 0; i < KEY.perAddress; i++) {
      const res = await mcp(generateApiKey('live'), address)
      expect(res.status).toBe(401)
      await res.body?.cancel()
    }
    await expectThrottled(await mcp(generateApiKey('live'), address), 'failed-api-key-ip', MCP_PATH)
    await expectThrottled(await mcp(full.keys.agent!, address), 'failed-api-key-ip', MCP_PATH)
    const elsewhere = await mcp(full.keys.agent!, freshAddress())
    expect(elsewhere.status).toBe(200)
    await assertMatchesContract('POST', MCP_PATH, elsewhere)
  })

  it(`for one key prefix from many addresses: ${KEY.perIdentifier} get 401, then 429; the key itself is never locked out`, async () => {
    const real = full.keys.agent!
    // Look-alikes of the agent's key: same prefix, other random characters (not well-formed, so never valid).
    const lookAlike = (i: number) => `${real.slice(0, 16)}${String(i).padStart(4, '0')}${real.slice(20)}`
    for (let i = 0; i < KEY.perIdentifier; i++) {
      const res = await mcp(lookAlike(i), freshAddress())
      expect(res.status).toBe(401)
      await res.body?.cancel()
    }
    await expectThrottled(await mcp(lookAlike(99), freshAddress()), 'failed-api-key-prefix', MCP_PATH)
    // Keys are unguessable, so their owner keeps working: someone failing on purpose cannot lock a key out.
    expect((await mcp(real, freshAddress())).status).toBe(200)
  })
})

describe('wrong client secrets at /oauth/token', () => {
  it(`400 in a row from one address: ${SECRET.perAddress} get 401, every later one 429`, async () => {
    const address = freshAddress()
    const statuses: number[] = []
    for (let i = 0; i < 400; i++) {
      // A client id per attempt, so only the address's count reaches its limit.
      const res = await token(`client-${i}`, `wrong-${i}`, address)
      statuses.push(res.status)
      if (i === SECRET.perAddress) await expectThrottled(res, 'failed-client-secret-ip', TOKEN_PATH)
      else await res.body?.cancel()
    }
    expect(statuses.slice(0, SECRET.perAddress).every((s) => s === 401)).toBe(true)
    expect(statuses.slice(SECRET.perAddress).every((s) => s === 429)).toBe(true)
    // The right secret from that address is refused unchecked; from anywhere else it gets a token.
    expect((await token('agent', full.secrets.agent!, address)).status).toBe(429)
    const good = await token('agent', full.secrets.agent!, freshAddress())
    expect(good.status).toBe(200)
    await assertMatchesContract('POST', TOKEN_PATH, good)
  }, 120_000)

  it(`for one client_id from many addresses: ${SECRET.perIdentifier} get 401, then 429; the client's own secret still works`, async () => {
    for (let i = 0; i < SECRET.perIdentifier; i++) {
      const res = await token('sandbox', `wrong-${i}`, freshAddress())
      expect(res.status).toBe(401)
      await res.body?.cancel()
    }
    await expectThrottled(
      await token('sandbox', 'wrong-again', freshAddress()),
      'failed-client-secret-client',
      TOKEN_PATH,
    )
    // A published client id (the sandbox's, built in) cannot be locked out by strangers failing on purpose.
    expect((await token(SANDBOX_CLIENT.id, SANDBOX_CLIENT.secret, freshAddress())).status).toBe(200)
  })
})

describe('across processes', () => {
  it('counts the failures of every gateway on the same state store', async () => {
    const second = await startBuiltGateway({
      project: full.project,
      filesDir: join(full.project.root, 'second'),
      stateDir: full.stateDir,
      env: { RATE_LIMIT_PER_MINUTE: '0', TRUST_PROXY: 'x-forwarded-for' },
      keys: { agent: 'agent.mcp' },
      clients: { agent: ['mcp.tools.invoke'] },
    })
    try {
      const address = freshAddress()
      const other = (key: string) =>
        fetch(`${second.url}/mcp`, {
          method: 'POST',
          headers: { ...MCP_HEADERS, authorization: `Bearer ${key}`, 'x-forwarded-for': address },
          body: PING,
        })
      for (let i = 0; i < KEY.perAddress; i++) {
        const res = await (i % 2 ? other(generateApiKey('live')) : mcp(generateApiKey('live'), address))
        expect(res.status).toBe(401)
        await res.body?.cancel()
      }
      // Half the failures were the other process's: this one still refuses the next.
      await expectThrottled(await other(generateApiKey('live')), 'failed-api-key-ip', MCP_PATH)
    } finally {
      await second.close()
    }
  }, 120_000)
})

describe('the counts (a real file store, a clock the test moves)', () => {
  it('end with their window: 15 minutes after the first failure, the address may try again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'failed-auth-'))
    try {
      let now = Date.parse('2026-11-23T08:00:00Z')
      const throttle = createFailureThrottle(openFileStore(dir), { now: () => now })
      const subject = { address: '192.0.2.1', identifier: 'tw_live_abcdefgh' }
      for (let i = 0; i < KEY.perAddress; i++)
        expect((await throttle.failed('api-key', { ...subject, identifier: `tw_live_${i}` })).ok).toBe(true)
      const over = await throttle.failed('api-key', subject)
      expect(over).toMatchObject({ ok: false, by: 'address', retryAfterSeconds: KEY.windowSeconds })
      expect((await throttle.check('api-key', subject)).ok).toBe(false)
      now += KEY.windowSeconds * 1000
      expect((await throttle.check('api-key', subject)).ok).toBe(true)
      expect((await throttle.failed('api-key', subject)).ok).toBe(true)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('refuse with a 503, never let through, when the store cannot count a failure or read a count, and say so', async () => {
    const errors: string[] = []
    // A store whose folder is a file cannot be written: a real failing store, not a stand-in.
    const dir = await mkdtemp(join(tmpdir(), 'failed-auth-'))
    try {
      await writeFile(join(dir, 'store'), 'not a folder')
      const throttle = createFailureThrottle(openFileStore(join(dir, 'store')), {
        onStoreError: (e) => errors.push(e.message),
      })
      await expect(
        throttle.failed('client-secret', { address: '192.0.2.2', identifier: 'agent' }),
      ).rejects.toMatchObject({ status: 503 })
      expect(errors).toHaveLength(1)
      // A sign-in's counts are read before the password is looked at: unreadable, the attempt is refused too.
      await expect(
        throttle.check('sign-in', { address: '192.0.2.2', identifier: 'ada@example.com' }),
      ).rejects.toMatchObject({ status: 503 })
      expect(errors).toHaveLength(2)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
