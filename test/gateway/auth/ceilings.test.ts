/**
 * The ceilings on what anonymous callers make the authorization server
 * keep: past OAUTH_MAX_REGISTERED_CLIENTS a registration, and past
 * OAUTH_MAX_PENDING_AUTHORIZATIONS an authorization start, get a 503
 * problem saying why, logged once; nothing kept is dropped to make room,
 * so registered clients, sign-ins under way and machine clients carry on.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { problemDefect } from '../../helpers/problem-assert.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'
import { UserAgent } from './user-agent.ts'

const GRACE = { email: 'grace@example.com', password: 'compilers all the way down', name: 'Grace Hopper' }
const REDIRECT = 'http://127.0.0.1:9/callback'
const insecure = { execute: [oidc.allowInsecureRequests] }

let project: TempProject
let t: BuiltGateway

beforeAll(async () => {
  project = await createProject({ 'content/blog-posts/first.md': validPost('First') })
  t = await startBuiltGateway({
    project,
    people: { grace: GRACE },
    clients: { machine: ['mcp.tools.invoke'] },
    env: { OAUTH_MAX_REGISTERED_CLIENTS: '2', OAUTH_MAX_PENDING_AUTHORIZATIONS: '2' },
  })
})
afterAll(async () => {
  await t?.close()
  await project?.remove()
})

const register = () =>
  fetch(`${t.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  })

const records = async (model: string) => (await readdir(join(t.stateDir, 'oidc', model)).catch(() => [])).length

async function expect503(res: Response, about: RegExp) {
  expect(res.status).toBe(503)
  const text = await res.text()
  expect(problemDefect(503, res.headers.get('content-type'), text)).toBeUndefined()
  const body = JSON.parse(text) as { type: string; detail: string }
  expect(body.type).toBe('/problems/unavailable')
  expect(body.detail).toMatch(about)
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
}

/** Start an authorization request for `clientId` and return the PKCE verifier and the URL. */
async function start(clientId: string) {
  const config = await oidc.discovery(new URL(t.url), clientId, undefined, oidc.None(), insecure)
  const verifier = oidc.randomPKCECodeVerifier()
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  })
  return { config, verifier, url }
}

describe('the ceilings', () => {
  let clients: string[]

  it('past the registered clients’ ceiling a registration gets a 503 problem, logged once; nothing is replaced', async () => {
    const first = await Promise.all([register(), register()])
    expect(first.map((r) => r.status)).toEqual([201, 201])
    clients = await Promise.all(first.map(async (r) => ((await r.json()) as { client_id: string }).client_id))
    await expect503(await register(), /registered clients/)
    await expect503(await register(), /registered clients/)
    expect(await records('Client')).toBe(2)
    // One warning naming the setting, and no error line per refusal: a ceiling is not a failure.
    const logged = t.logs.filter((line) => line.includes('OAUTH_MAX_REGISTERED_CLIENTS'))
    expect(logged).toHaveLength(1)
    expect(JSON.parse(logged[0]!)).toMatchObject({ level: 'warn', limit: 2 })
    expect(t.logs.filter((line) => line.includes('"level":"error"'))).toEqual([])
  })

  it('past the ceiling on authorization requests in progress a start gets a 503; those in progress finish', async () => {
    const [a, b] = [await start(clients[0]!), await start(clients[1]!)]
    const agent = new UserAgent()
    const first = await agent.openSignIn(a.url.href)
    expect(first).not.toBeInstanceOf(URL)
    expect((await fetch(b.url, { redirect: 'manual' })).status).toBe(303)
    expect(await records('Interaction')).toBe(2)

    const third = await start(clients[1]!)
    await expect503(await fetch(third.url, { redirect: 'manual' }), /sign-ins in progress/)
    expect(await records('Interaction')).toBe(2)
    expect(t.logs.filter((line) => line.includes('OAUTH_MAX_PENDING_AUTHORIZATIONS'))).toHaveLength(1)
    expect(t.logs.filter((line) => line.includes('"level":"error"'))).toEqual([])

    // The one started before the ceiling signs in and gets its tokens: an existing client still works.
    const callback = await agent.authorize((first as { url: string }).url, GRACE, REDIRECT)
    const tokens = await oidc.authorizationCodeGrant(a.config, callback, { pkceCodeVerifier: a.verifier })
    expect(tokens.access_token).toEqual(expect.any(String))
    // So does a machine client.
    expect(await t.token('machine')).toEqual(expect.any(String))
  })
})
