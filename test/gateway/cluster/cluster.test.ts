/**
 * Three gateway processes on three ports, one real Redis (STATE_STORE=redis)
 * and a load balancer in front, as a self-hosted deployment runs them: what
 * one gateway does, every other sees. An authorization started on one is
 * finished on another; a limit is counted across all of them; a key revoked
 * through the CLI is refused by each; a build every gateway reloads sends its
 * webhook once.
 */
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { MCP_PATH, SEARCH_PATH } from '../../../contract/public-paths.ts'
import { STORE_RECHECK_MS } from '../../../gateway/auth/runtime-data.ts'
import { allLogged, startCluster, T0, webhooksSettled, type Cluster } from '../../helpers/cluster.ts'
import { commitAll } from '../../helpers/git.ts'
import { validPost } from '../../helpers/project.ts'
import { until } from '../../helpers/until.ts'
import { UserAgent } from '../auth/user-agent.ts'
import { startReceiver, type Receiver } from '../webhooks/receiver.ts'

const ADA = { email: 'ada@example.com', password: 'analytical engine 1843', name: 'Ada Lovelace' }
const REDIRECT = 'http://127.0.0.1:9/callback'
const SEARCHES_PER_MINUTE = 6

let cluster: Cluster

beforeAll(async () => {
  cluster = await startCluster({
    gateways: 3,
    env: { COMPUTED_RATE_LIMIT_PER_MINUTE: String(SEARCHES_PER_MINUTE), LOG_LEVEL: 'debug' },
  })
}, 120_000)
afterAll(() => cluster?.close())

const ping = (url: string, key: string) =>
  fetch(`${url}${MCP_PATH}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  })

describe('an authorization code flow across gateways', () => {
  it('is started on one gateway, signed in on a second and finished on the third', async () => {
    const created = await cluster.keys(
      ['user', 'create', '--email', ADA.email, '--name', ADA.name, '--password-stdin'],
      ADA.password,
    )
    expect(created.code, created.stderr).toBe(0)
    const insecure = { execute: [oidc.allowInsecureRequests] }
    const config = await oidc.dynamicClientRegistration(
      new URL(cluster.front.url),
      {
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      undefined,
      insecure,
    )
    // The load balancer sends each step to a gateway of the test's choosing.
    cluster.front.pick = (_, path) =>
      path.startsWith('/oauth/authorize') ? 0 : path.startsWith('/oauth/interaction/') ? 1 : 2
    const verifier = oidc.randomPKCECodeVerifier()
    const state = oidc.randomState()
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid profile',
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })
    const callback = await new UserAgent().authorize(url.href, ADA, REDIRECT)
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    })
    cluster.front.pick = undefined
    expect(tokens.claims()).toMatchObject({ iss: cluster.front.url, sub: created.stdout.trim() })
    const byPath = (prefix: string) => [
      ...new Set(cluster.front.served.filter((s) => s.path.startsWith(prefix)).map((s) => s.backend)),
    ]
    expect(byPath('/oauth/authorize?')).toEqual([0])
    expect(byPath('/oauth/interaction/')).toEqual([1])
    expect(byPath('/oauth/token')).toEqual([2])
    // The refresh token, issued by the third, is redeemed at whichever gateway the balancer picks next.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!)
    expect(refreshed.access_token).toEqual(expect.any(String))
  })
})

describe('a limit shared by every gateway', () => {
  it('counts requests to all of them together: the one past it is refused by whichever gets it', async () => {
    const search = (i: number) => fetch(`${cluster.gateways[i % 3]!.url}${SEARCH_PATH}?q=post`)
    for (let i = 0; i < SEARCHES_PER_MINUTE; i++) {
      const res = await search(i)
      expect(res.status).toBe(200)
      // The RateLimit field reports the shared count, not this gateway's.
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"computed";r=${SEARCHES_PER_MINUTE - 1 - i};t=\\d+$`))
      await res.body?.cancel()
    }
    for (let i = 0; i < 3; i++) {
      const refused = await search(i)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      await refused.body?.cancel()
    }
  })
})

describe('a key revoked through the CLI', () => {
  it('is refused by every gateway once their short recheck has passed, under a second', async () => {
    const created = await cluster.keys(['create', '--role', 'agent.mcp', '--label', 'cluster'])
    expect(created.code, created.stderr).toBe(0)
    const key = created.stdout.trim()
    const id = /created (key_\w+)/.exec(created.stderr)![1]!
    for (const g of cluster.gateways)
      await until(() => ping(g.url, key).then((r) => r.status), {
        holds: (s) => s === 200,
        what: 'the new key accepted',
      })
    const revoked = await cluster.keys(['revoke', id])
    expect(revoked.code, revoked.stderr).toBe(0)
    const at = Date.now()
    // A gateway asks the store whether the keys changed at most STORE_RECHECK_MS after it last did, before it
    // answers: every request from then on is checked against the revocation.
    expect(STORE_RECHECK_MS).toBeLessThan(1000)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at + STORE_RECHECK_MS - Date.now())))
    for (const g of cluster.gateways) expect((await ping(g.url, key)).status).toBe(401)
  })
})

describe('webhooks from several gateways', () => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(() => receiver?.close())

  it('sends a change once, although every gateway reloads the build that has it', async () => {
    await allLogged(cluster, (log) => log.includes('"msg":"webhooks: pass done"'), 'a first webhook pass everywhere')
    const made = await cluster.keys(['webhook', 'create', '--url', receiver.url, '--events', 'all'])
    expect(made.code, made.stderr).toBe(0)
    receiver.secrets.push(made.stdout.trim())
    const { project } = cluster
    await project.write('content/blog-posts/shared.md', validPost('Shared'))
    await commitAll(project.root, 'shared', T0 + 100)
    const build = await buildSite({ root: project.root, cache: false })
    for (const g of cluster.gateways) g.child.kill('SIGHUP')
    await until(() => receiver.events.length, { holds: (n) => n >= 1, what: 'the event delivered' })
    // Every gateway has passed over the new build (and found it sent); nothing waits in the queue.
    await webhooksSettled(cluster, build.manifest.build.id)
    expect(receiver.deliveries).toHaveLength(1)
    expect(receiver.events[0]).toMatchObject({ type: 'content.published', data: { slug: 'shared' } })
    expect(cluster.gateways.map((g) => g.log().match(/"msg":"webhooks: events queued"/g)?.length ?? 0).sort()).toEqual([
      0, 0, 1,
    ])
  })
})
