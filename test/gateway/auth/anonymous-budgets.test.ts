/**
 * What an anonymous caller can make the authorization server keep, bounded
 * in time: registrations and authorization starts draw from hourly budgets
 * per address (429 past them, with Retry-After and RateLimit fields), and a
 * dynamically registered client is kept only while it is used — removed a
 * grace period after registering unless it obtained a token, and after an
 * idle period since its last token. The gateway's clock is the platform's,
 * moved by the test (no waiting, no fake timers).
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { problemDefect } from '../../helpers/problem-assert.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'
import { rateLimitFields } from '../../helpers/ratelimit-fields.ts'
import { UserAgent } from './user-agent.ts'

const ADA = { email: 'ada@example.com', password: 'analytical engine 1843', name: 'Ada Lovelace' }
const REDIRECT = 'http://127.0.0.1:9/callback'
const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR
const insecure = { execute: [oidc.allowInsecureRequests] }

let project: TempProject
let t: BuiltGateway
/** The gateway's clock: the test moves it. */
let clock = Date.now()

beforeAll(async () => {
  project = await createProject({ 'content/blog-posts/first.md': validPost('First') })
  t = await startBuiltGateway({
    project,
    people: { ada: ADA },
    clients: { machine: ['api.read'] },
    env: {
      TRUST_PROXY: 'x-forwarded-for',
      REGISTRATION_RATE_LIMIT_PER_HOUR: '3',
      AUTHORIZATION_RATE_LIMIT_PER_HOUR: '3',
      OAUTH_CLIENT_GRACE_HOURS: '24',
      OAUTH_CLIENT_IDLE_DAYS: '90',
    },
    platform: { now: () => new Date(clock) },
  })
})
afterAll(async () => {
  await t?.close()
  await project?.remove()
})

function register(address: string, metadata: Record<string, unknown> = {}) {
  return fetch(`${t.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...metadata }),
  })
}

const authorizeUrl = (clientId: string) =>
  `${t.url}/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  })}`

function authorize(address: string, clientId: string) {
  return fetch(authorizeUrl(clientId), { redirect: 'manual', headers: { 'x-forwarded-for': address } })
}

/** The ids of the registered clients in the store (one file each). */
async function storedClients(): Promise<string[]> {
  const files = await readdir(join(t.stateDir, 'oidc', 'Client')).catch(() => [])
  return files.filter((f) => f.endsWith('.json')).map((f) => decodeURIComponent(f.slice(0, -'.json'.length)))
}

async function storedInteractions(): Promise<number> {
  return (await readdir(join(t.stateDir, 'oidc', 'Interaction')).catch(() => [])).length
}

const sweep = () => t.gateway.auth!.builtIn!.store.sweep()

async function expect429(res: Response, policy: string, quota: number) {
  expect(res.status).toBe(429)
  expect(problemDefect(429, res.headers.get('content-type'), await res.text())).toBeUndefined()
  const retryAfter = Number(res.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(3600)
  expect(rateLimitFields(res.headers.get('ratelimit-policy'))[policy]).toEqual({ q: quota, w: 3600 })
  expect(rateLimitFields(res.headers.get('ratelimit'))[policy]).toEqual({ r: 0, t: retryAfter })
}

describe('budgets per address', () => {
  it('a registration flood from one address meets its 429; other addresses still register; the next hour it may again', async () => {
    const flood = []
    for (let i = 0; i < 6; i++) flood.push(await register('10.1.0.1'))
    expect(flood.map((r) => r.status)).toEqual([201, 201, 201, 429, 429, 429])
    expect(rateLimitFields(flood[0]!.headers.get('ratelimit'))).toMatchObject({ registration: { r: 2 } })
    await expect429(flood[3]!, 'registration', 3)
    // The general budget is far from spent: it is the registration budget that refused.
    expect(rateLimitFields(flood[3]!.headers.get('ratelimit')).ip!.r).toBeGreaterThan(500)
    expect(await storedClients()).toHaveLength(3)

    expect((await register('10.1.0.2')).status).toBe(201)
    clock += HOUR
    expect((await register('10.1.0.1')).status).toBe(201)
  })

  it('so do authorization starts: each kept until it finishes or expires, and no more than the budget', async () => {
    const { client_id } = (await (await register('10.2.0.1')).json()) as { client_id: string }
    const before = await storedInteractions()
    const starts = []
    for (let i = 0; i < 5; i++) starts.push(await authorize('10.2.0.2', client_id))
    expect(starts.map((r) => r.status)).toEqual([303, 303, 303, 429, 429])
    await expect429(starts[3]!, 'authorization', 3)
    expect((await storedInteractions()) - before).toBe(3)
    // The pages of a sign-in already started are not starts: they draw from the general budget only.
    const page = await fetch(new URL(starts[0]!.headers.get('location')!, t.url), {
      headers: { 'x-forwarded-for': '10.2.0.2' },
    })
    expect(page.status).not.toBe(429)
  })
})

describe('registered clients expire unless used', () => {
  /** Sign Ada in with `config` through the pages, from `address`, and redeem the code. */
  async function signIn(config: oidc.Configuration, address: string) {
    const verifier = oidc.randomPKCECodeVerifier()
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })
    const callback = await new UserAgent({ 'x-forwarded-for': address }).authorize(url.href, ADA, REDIRECT)
    return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })
  }

  it('removes a registration that obtained no token in its grace period, and one idle for the idle period', async () => {
    const unused = (await (await register('10.3.0.1')).json()) as Record<string, unknown>
    // A public client: nothing in the answer can say it expires (RFC 7591 has no field but the secret's).
    expect(unused.client_secret_expires_at).toBeUndefined()

    const confidential = await register('10.3.0.1', { token_endpoint_auth_method: 'client_secret_basic' })
    const registered = (await confidential.json()) as { client_id: string; client_secret: string } & Record<
      string,
      unknown
    >
    expect(registered.client_secret_expires_at).toBe(Math.floor(clock / 1000) + 24 * 60 * 60)
    const config = await oidc.discovery(
      new URL(t.url),
      registered.client_id,
      registered.client_secret,
      undefined,
      insecure,
    )
    expect((await signIn(config, '10.3.0.2')).access_token).toEqual(expect.any(String))

    // A day and a minute later: the unused one is gone; the used one is kept.
    clock += DAY + 60_000
    expect(await sweep()).toBeGreaterThan(0)
    const kept = await storedClients()
    expect(kept).not.toContain(unused.client_id)
    expect(kept).toContain(registered.client_id)
    const refused = await authorize('10.3.0.3', unused.client_id as string)
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('invalid_client')
    expect((await authorize('10.3.0.3', registered.client_id)).status).toBe(303)

    // Each token moves the end on: used again on day 60, it outlives day 90 since the first token.
    clock += 59 * DAY
    expect((await signIn(config, '10.3.0.4')).access_token).toEqual(expect.any(String))
    clock += 60 * DAY
    await sweep()
    expect(await storedClients()).toContain(registered.client_id)

    // 90 days without a token: gone, and the client is unknown.
    clock += 31 * DAY
    await sweep()
    expect(await storedClients()).not.toContain(registered.client_id)
    const gone = await authorize('10.3.0.5', registered.client_id)
    expect(gone.status).toBe(400)
    expect(await gone.text()).toContain('invalid_client')
  })

  it('never expires the machine clients of the clients file (the CLI makes them)', async () => {
    clock += 400 * DAY
    await sweep()
    expect(await t.token('machine')).toEqual(expect.any(String))
  })
})
