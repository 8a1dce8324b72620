/**
 * Revocation that revokes, with openid-client as the relying party and the
 * embedded issuer's real JWT access tokens: a token revoked at
 * /oauth/revoke (RFC 7009), the tokens of a client revoked with the keys
 * CLI or whose registration expired, and the tokens issued from an
 * authorization code that is used again (RFC 6749 §4.1.2) are all refused
 * at /mcp from then on, while other tokens keep working.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { decodeJwt } from 'jose'
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { UserAgent } from './user-agent.ts'

const ADA = { email: 'ada@example.com', password: 'analytical engine 1843', name: 'Ada Lovelace' }
const REDIRECT = 'http://127.0.0.1/callback'
const HOUR = 60 * 60 * 1000
const insecure = { execute: [oidc.allowInsecureRequests] }

let t: BuiltGateway
/** The gateway's clock (its state store's and the registrations' lifetimes): the test moves it. */
let clock = Date.now()

beforeAll(async () => {
  t = await startBuiltGateway({
    people: { ada: ADA },
    clients: { machine: ['mcp.tools.invoke'], other: ['mcp.tools.invoke'], doomed: ['mcp.tools.invoke'] },
    env: { OAUTH_TOKEN_TTL: '3600', OAUTH_CLIENT_GRACE_HOURS: '24', RATE_LIMIT_PER_MINUTE: '0' },
    platform: { now: () => new Date(clock) },
  })
})
afterAll(() => t?.close())

/** POST /mcp ping with `token`: the status, and the error description of a refusal. */
async function mcp(token: string): Promise<{ status: number; description?: string }> {
  const res = await fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  })
  await res.arrayBuffer()
  const description = /error_description="([^"]*)"/.exec(res.headers.get('www-authenticate') ?? '')?.[1]
  return { status: res.status, ...(description ? { description } : {}) }
}

/** A registered client, confidential, that signs people in and refreshes. */
function registerClient() {
  return oidc.dynamicClientRegistration(
    new URL(t.url),
    {
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    undefined,
    insecure,
  )
}

/** A machine client of the clients file, through discovery. */
function machineClient(id: string) {
  return oidc.discovery(new URL(t.url), id, t.secrets[id], undefined, insecure)
}

/** Ada signs in; the callback (with its code) and the PKCE verifier. */
async function authorize(config: oidc.Configuration) {
  const verifier = oidc.randomPKCECodeVerifier()
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `http://127.0.0.1:54321/callback`,
    scope: 'mcp.tools.invoke',
    resource: `${t.url}/mcp`,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  })
  const callback = await new UserAgent().authorize(url.href, ADA, 'http://127.0.0.1:54321/callback')
  return { callback, verifier }
}

describe('/oauth/revoke with an access token', () => {
  it('refuses that token from then on; the client and its other tokens keep working', async () => {
    const config = await registerClient()
    const { callback, verifier } = await authorize(config)
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })
    const other = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: `${t.url}/mcp` })
    expect(await mcp(tokens.access_token)).toEqual({ status: 200 })

    await oidc.tokenRevocation(config, tokens.access_token, { token_type_hint: 'access_token' })
    expect(await mcp(tokens.access_token)).toEqual({ status: 401, description: 'The token has been revoked.' })
    // Only that token: the one refreshed beside it, and its refresh token, still work.
    expect(await mcp(other.access_token)).toEqual({ status: 200 })
    const again = await oidc.refreshTokenGrant(config, other.refresh_token!, { resource: `${t.url}/mcp` })
    expect(await mcp(again.access_token)).toEqual({ status: 200 })
  })

  it('revokes a client_credentials token; another client cannot revoke it', async () => {
    const machine = await machineClient('machine')
    const token = (await oidc.clientCredentialsGrant(machine, { scope: 'mcp.tools.invoke', ...forMcpNow() }))
      .access_token
    // Another confidential client is told it may not; the token stays good.
    await expect(oidc.tokenRevocation(await machineClient('other'), token)).rejects.toMatchObject({
      error: 'invalid_request',
    })
    expect(await mcp(token)).toEqual({ status: 200 })
    await oidc.tokenRevocation(machine, token)
    expect((await mcp(token)).status).toBe(401)
  })

  it('answers 200 for a token that is not ours, and a wrong secret is still a 401', async () => {
    const machine = await machineClient('machine')
    await oidc.tokenRevocation(machine, 'eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJ4In0.c2ln')
    const token = (await oidc.clientCredentialsGrant(machine, { scope: 'mcp.tools.invoke', ...forMcpNow() }))
      .access_token
    const wrong = await oidc.discovery(new URL(t.url), 'machine', 'tw_cs_wrong', undefined, insecure)
    await expect(oidc.tokenRevocation(wrong, token)).rejects.toMatchObject({ response: { status: 401 } })
    expect(await mcp(token)).toEqual({ status: 200 })
  })

  it('keeps the deny list bounded: an entry lives as long as its token could', async () => {
    // The store's clock (the platform's, frozen by the test) set to the system's, which the token's exp is on.
    clock = Date.now()
    const machine = await machineClient('machine')
    const token = (await oidc.clientCredentialsGrant(machine, { scope: 'mcp.tools.invoke', ...forMcpNow() }))
      .access_token
    await oidc.tokenRevocation(machine, token)
    const { jti, exp } = decodeJwt(token)
    const entry = JSON.parse(
      await readFile(join(t.stateDir, 'revoked', 'token', `${encodeURIComponent(jti!)}.json`), 'utf8'),
    ) as { exp: number }
    // The token's expiry and the verifier's clock tolerance, no more.
    expect(entry.exp - exp!).toBeGreaterThan(0)
    expect(entry.exp - exp!).toBeLessThanOrEqual(31)
  })
})

describe('a revoked client', () => {
  it('`keys client revoke`: the tokens it holds are refused, other clients keep theirs', async () => {
    const doomed = await machineClient('doomed')
    const token = (await oidc.clientCredentialsGrant(doomed, { scope: 'mcp.tools.invoke', ...forMcpNow() }))
      .access_token
    const machine = await machineClient('machine')
    const kept = (await oidc.clientCredentialsGrant(machine, { scope: 'mcp.tools.invoke', ...forMcpNow() }))
      .access_token
    expect(await mcp(token)).toEqual({ status: 200 })

    const code = await runKeysCli(['client', 'revoke', 'doomed', '--file', join(t.project.root, 'clients.json')], {
      env: {},
      cwd: t.project.root,
      out: () => {},
      err: () => {},
    })
    expect(code).toBe(0)
    expect(await mcp(token)).toEqual({
      status: 401,
      description: 'The token has been revoked: its client is no longer registered or was revoked.',
    })
    expect(await mcp(kept)).toEqual({ status: 200 })
  })

  it('a registration that expired: the tokens it obtained are refused', async () => {
    // Registered, never used for a token: kept for the grace period only. A token now keeps it for the idle period,
    // so this one obtains its token and then sees its registration end.
    const config = await registerClient()
    const { callback, verifier } = await authorize(config)
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })
    expect(await mcp(tokens.access_token)).toEqual({ status: 200 })
    // The token lives an hour; move the store's clock past the client's idle period (90 days by default).
    clock += 91 * 24 * HOUR
    try {
      expect((await mcp(tokens.access_token)).description).toMatch(/its client is no longer registered/)
    } finally {
      clock = Date.now()
    }
  })
})

describe('an authorization code used twice (RFC 6749 §4.1.2)', () => {
  it('refuses the tokens issued from it, and its refresh token', async () => {
    // The platform's clock minutes behind the system's, which the tokens' iat and exp are on: the deny list
    // compares a token with its own clock.
    clock = Date.now() - 5 * 60_000
    const config = await registerClient()
    const { callback, verifier } = await authorize(config)
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: `${t.url}/mcp` })
    expect(await mcp(tokens.access_token)).toEqual({ status: 200 })
    expect(await mcp(refreshed.access_token)).toEqual({ status: 200 })

    // The code again (an attacker who intercepted it): refused, and the grant revoked.
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })).rejects.toMatchObject({
      error: 'invalid_grant',
    })
    for (const token of [tokens.access_token, refreshed.access_token])
      expect(await mcp(token)).toEqual({
        status: 401,
        description: 'The token has been revoked: its grant was revoked.',
      })
    await expect(
      oidc.refreshTokenGrant(config, refreshed.refresh_token!, { resource: `${t.url}/mcp` }),
    ).rejects.toMatchObject({ error: 'invalid_grant' })

    // The person signing in to the same client again gets tokens that work.
    const next = await authorize(config)
    const fresh = await oidc.authorizationCodeGrant(config, next.callback, { pkceCodeVerifier: next.verifier })
    expect(await mcp(fresh.access_token)).toEqual({ status: 200 })
    clock = Date.now()
  })
})

function forMcpNow() {
  return { resource: `${t.url}/mcp` }
}
