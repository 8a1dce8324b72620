/**
 * Loopback redirects for native clients (RFC 8252 §7.3), with openid-client
 * as the agent CLI: a redirect URI registered on 127.0.0.1 or [::1] without
 * a port accepts whatever port the client listens on, through sign-in to
 * tokens; anything else is compared exactly, and a mismatch says the rule.
 */
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { UserAgent } from './user-agent.ts'

const ADA = { email: 'ada@example.com', password: 'analytical engine 1843', name: 'Ada Lovelace' }
const insecure = { execute: [oidc.allowInsecureRequests] }

let t: BuiltGateway

beforeAll(async () => {
  t = await startBuiltGateway({ people: { ada: ADA } })
})
afterAll(() => t?.close())

/** A public client registered as a CLI does: no secret, the redirect URIs given. */
function register(redirectUris: string[]) {
  return oidc.dynamicClientRegistration(
    new URL(t.url),
    {
      redirect_uris: redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      client_name: 'An agent CLI',
    },
    oidc.None(),
    insecure,
  )
}

async function authorizationUrl(config: oidc.Configuration, redirectUri: string, verifier: string) {
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'mcp.tools.invoke',
    resource: `${t.url}/mcp`,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  })
}

/** The error page the browser is shown instead of a redirect, as text. */
async function refusal(url: URL): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { redirect: 'manual' })
  return { status: res.status, text: (await res.text()).replace(/&quot;/g, '"').replace(/&#39;/g, "'") }
}

describe('a loopback redirect URI registered without a port', () => {
  it.each([
    ['http://127.0.0.1/callback', 'http://127.0.0.1:54321/callback'],
    ['http://[::1]/callback', 'http://[::1]:54321/callback'],
  ])('%s accepts port 54321, through sign-in to tokens that work', async (registered, asked) => {
    const config = await register([registered])
    const verifier = oidc.randomPKCECodeVerifier()
    const callback = await new UserAgent().authorize((await authorizationUrl(config, asked, verifier)).href, ADA, asked)
    expect(callback.origin + callback.pathname).toBe(asked)
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })
    const mcp = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(mcp.status).toBe(200)
  })

  it('and still its own URI, exactly', async () => {
    const config = await register(['http://127.0.0.1/callback'])
    const verifier = oidc.randomPKCECodeVerifier()
    const url = await authorizationUrl(config, 'http://127.0.0.1/callback', verifier)
    const callback = await new UserAgent().authorize(url.href, ADA, 'http://127.0.0.1/callback')
    expect(callback.searchParams.get('code')).toEqual(expect.any(String))
  })
})

describe('everything else is compared exactly', () => {
  it.each([
    ['a port other than the one registered', 'http://127.0.0.1:9/callback', 'http://127.0.0.1:54321/callback'],
    ['localhost, which may resolve elsewhere', 'http://localhost/callback', 'http://localhost:54321/callback'],
    ['another path on the loopback address', 'http://127.0.0.1/callback', 'http://127.0.0.1:54321/other'],
    ['another loopback address', 'http://127.0.0.1/callback', 'http://[::1]:54321/callback'],
    ['a query the registration has not', 'http://127.0.0.1/callback', 'http://127.0.0.1:54321/callback?x=1'],
    ['https, on a port', 'https://app.example.com/callback', 'https://app.example.com:8443/callback'],
  ])('refuses %s, saying the rule', async (_, registered, asked) => {
    const config = await register([registered])
    const { status, text } = await refusal(await authorizationUrl(config, asked, oidc.randomPKCECodeVerifier()))
    expect(status).toBe(400)
    expect(text).toContain('invalid_redirect_uri')
    expect(text).toContain(`The redirect_uri "${asked}" is not one of the redirect URIs this client registered`)
    expect(text).toMatch(/without a port \(http:\/\/127\.0\.0\.1\/… or http:\/\/\[::1\]\/…\) accepts any port/)
    expect(text).not.toContain('did not match any')
  })
})
