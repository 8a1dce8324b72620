/**
 * The embedded authorization server with openid-client as the relying party:
 * OpenID discovery, Dynamic Client Registration, authorization code with
 * PKCE through our sign-in and consent pages, the ID token, profile and
 * email claims from userinfo, refresh token rotation and revocation.
 */
import { decodeJwt } from 'jose'
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { UserAgent } from './user-agent.ts'

const ADA = { email: 'ada@example.com', password: 'analytical engine 1843', name: 'Ada Lovelace' }
const REDIRECT = 'http://127.0.0.1:9/callback'
const insecure = { execute: [oidc.allowInsecureRequests] }

let t: BuiltGateway
let config: oidc.Configuration

beforeAll(async () => {
  t = await startBuiltGateway({ people: { ada: ADA } })
  config = await oidc.dynamicClientRegistration(
    new URL(t.url),
    {
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'Relying party test',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    undefined,
    insecure,
  )
})
afterAll(() => t?.close())

/** Sign Ada in through the pages and return the tokens of a code + PKCE flow. */
async function signIn(scope: string, extra: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier()
  const state = oidc.randomState()
  const nonce = oidc.randomNonce()
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  })
  const callback = await new UserAgent().authorize(url.href, ADA, REDIRECT)
  return oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  })
}

describe('discovery and registration', () => {
  it('finds the server by OpenID discovery and registers a confidential client', async () => {
    const server = config.serverMetadata()
    expect(server.issuer).toBe(t.url)
    expect(server.authorization_endpoint).toBe(`${t.url}/oauth/authorize`)
    const registered = config.clientMetadata()
    expect(registered.client_id).toMatch(/^reg_/)
    expect(registered.client_secret).toEqual(expect.any(String))
    // The secret is shown once: the store keeps its hash only.
    const rediscovered = await oidc.discovery(
      new URL(t.url),
      registered.client_id,
      registered.client_secret as string,
      undefined,
      insecure,
    )
    expect(rediscovered.serverMetadata().userinfo_endpoint).toBe(`${t.url}/oauth/userinfo`)
  })
})

describe('authorization code with PKCE', () => {
  it('gives an ID token for the person, and userinfo their profile and email', async () => {
    const tokens = await signIn('openid profile email')
    const claims = tokens.claims()!
    expect(claims).toMatchObject({ iss: t.url, aud: config.clientMetadata().client_id, sub: t.people.ada })
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)
    expect(info).toEqual({ sub: t.people.ada, name: ADA.name, email: ADA.email })
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid', 'profile'])
  })

  it('leaves out the claims of scopes not asked for', async () => {
    const tokens = await signIn('openid email')
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)
    expect(info).toEqual({ sub: t.people.ada, email: ADA.email })
  })

  it('issues a JWT access token for a resource, bound to it (RFC 8707, RFC 9068)', async () => {
    const tokens = await signIn('openid mcp.tools.invoke', { resource: `${t.url}/mcp` })
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: `${t.url}/mcp` })
    const payload = decodeJwt(refreshed.access_token)
    expect(payload).toMatchObject({
      iss: t.url,
      aud: `${t.url}/mcp`,
      sub: t.people.ada,
      client_id: config.clientMetadata().client_id,
      scope: 'mcp.tools.invoke',
    })
    const mcp = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${refreshed.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(mcp.status).toBe(200)
  })

  it('refuses a code redeemed without its PKCE verifier', async () => {
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    })
    const callback = await new UserAgent().authorize(url.href, ADA, REDIRECT)
    await expect(
      oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
        idTokenExpected: true,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('refuses an authorization request without PKCE, or with the plain method', async () => {
    for (const extra of [{}, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }] as Record<
      string,
      string
    >[]) {
      const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 's', ...extra })
      const res = await fetch(url, { redirect: 'manual' })
      expect(res.status).toBe(303)
      const back = new URL(res.headers.get('location')!)
      expect(back.origin + back.pathname).toBe(REDIRECT)
      expect(back.searchParams.get('error')).toBe('invalid_request')
    }
  })

  it('sends access_denied back when the person denies', async () => {
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid profile',
      state: 'st',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    })
    const back = await new UserAgent().authorize(url.href, ADA, REDIRECT, 'deny')
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('state')).toBe('st')
  })
})

describe('refresh tokens', () => {
  it('rotate on use; a used one is refused, and so is the whole chain after it', async () => {
    const tokens = await signIn('openid profile')
    const first = tokens.refresh_token!
    expect(first).toEqual(expect.any(String))
    const second = await oidc.refreshTokenGrant(config, first)
    expect(second.refresh_token).toEqual(expect.any(String))
    expect(second.refresh_token).not.toBe(first)
    // Replaying the rotated token is theft detection: refused, and the grant is revoked.
    await expect(oidc.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: 'invalid_grant' })
    await expect(oidc.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    })
  })

  it('can be revoked (RFC 7009)', async () => {
    const tokens = await signIn('openid')
    await oidc.tokenRevocation(config, tokens.refresh_token!)
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    })
  })
})

describe('state at rest', () => {
  it('keeps registered client secrets hashed and no tokens in the logs', async () => {
    const { readdir, readFile } = await import('node:fs/promises')
    const files = (await readdir(t.stateDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
    const all = (await Promise.all(files.map((f) => readFile(`${f.parentPath}/${f.name}`, 'utf8')))).join('\n')
    expect(all).toContain('sha256:')
    expect(all.includes(config.clientMetadata().client_secret as string)).toBe(false)
    expect(all.includes(ADA.password)).toBe(false)
    const logs = t.logs.join('\n')
    expect(logs.includes(ADA.password)).toBe(false)
    expect(logs.includes(config.clientMetadata().client_secret as string)).toBe(false)
    expect(logs).not.toMatch(/eyJ[\w-]+\.eyJ/)
    expect(t.logs.filter((line) => (JSON.parse(line) as { level: string }).level === 'error')).toEqual([])
    expect(logs).toContain('"msg":"signed in"')
  })
})
