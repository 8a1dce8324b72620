/**
 * Who may become a client without an operator. Dynamic Client Registration
 * and Client ID Metadata Documents are open to anyone, so both are held to
 * one policy: the authorization code flow only, and redirect URIs that are
 * https or http on a loopback address. CIMD documents are fetched with the
 * provider's guards (no private addresses, a size bound) and must name
 * themselves. Machine clients (client_credentials) come only from the file.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'

const DOCS_HOST = 'https://apps.example.test'
let t: BuiltGateway
/** Serves the CIMD documents of the tests; the gateway's fetch reaches it as DOCS_HOST. */
let docs: { server: Server; url: string; bodies: Map<string, string> }
/** A gateway whose fetch keeps the provider's guarded connection: only the address guard stands between it and the server. */
let guarded: BuiltGateway

beforeAll(async () => {
  const bodies = new Map<string, string>()
  const server = createServer((req, res) => {
    const body = bodies.get(req.url ?? '')
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' })
    res.end(body ?? '{}')
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  docs = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies }
  t = await startBuiltGateway({
    clients: { machine: ['api.read'] },
    platform: {
      fetch: (url, init) => {
        const target = new URL(url instanceof Request ? url.url : url)
        const { dispatcher: _dispatcher, ...rest } = init as RequestInit & { dispatcher?: unknown }
        return fetch(`${docs.url}${target.pathname}`, rest)
      },
    },
  })
  guarded = await startBuiltGateway({
    platform: {
      // Plain http to the same local server, through the provider's own dispatcher (its special-use address guard).
      fetch: (url, init) => fetch(String(url instanceof Request ? url.url : url).replace('https:', 'http:'), init),
    },
  })
})
afterAll(async () => {
  await t?.close()
  await guarded?.close()
  await new Promise((done) => docs?.server.close(done))
})

async function register(metadata: Record<string, unknown>, gateway = t) {
  const res = await fetch(`${gateway.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers }
}

const base = { redirect_uris: ['https://app.example.com/callback'], client_name: 'Policy test' }

describe('Dynamic Client Registration', () => {
  it.each([
    ['an https redirect URI', ['https://app.example.com/callback']],
    ['http on localhost', ['http://localhost:33418/callback']],
    ['http on 127.0.0.1 and [::1]', ['http://127.0.0.1/cb', 'http://[::1]:8080/cb']],
  ])('accepts %s', async (_name, redirect_uris) => {
    const { status, body, headers } = await register({ ...base, redirect_uris })
    expect(status).toBe(201)
    expect(body.client_id).toMatch(/^reg_/)
    expect(body.redirect_uris).toEqual(redirect_uris)
    // No management endpoint (RFC 7592): nothing to manage it with.
    expect(body.registration_access_token).toBeUndefined()
    expect(headers.get('access-control-allow-origin')).toBe('*')
  })

  it.each([
    ['http on a public host', { redirect_uris: ['http://app.example.com/callback'] }, 'invalid_redirect_uri'],
    ['a custom scheme', { redirect_uris: ['myapp://callback'] }, 'invalid_redirect_uri'],
    ['no redirect URI', { redirect_uris: [] }, 'invalid_redirect_uri'],
    [
      'eleven redirect URIs',
      { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example.com/${i}`) },
      'invalid_redirect_uri',
    ],
    [
      'the client_credentials grant',
      { grant_types: ['authorization_code', 'client_credentials'] },
      'invalid_client_metadata',
    ],
    ['the implicit flow', { response_types: ['token'], grant_types: ['implicit'] }, 'invalid_client_metadata'],
    ['a shared-secret JWT', { token_endpoint_auth_method: 'client_secret_jwt' }, 'invalid_client_metadata'],
    ['a software_id that is not a string', { software_id: 42 }, 'invalid_client_metadata'],
  ])('refuses %s', async (_name, metadata, error) => {
    const { status, body } = await register({ ...base, ...metadata })
    expect(status).toBe(400)
    expect(body.error).toBe(error)
    expect(body.error_description).toEqual(expect.any(String))
  })

  it('refuses a body that is not JSON, and one past the size cap with a problem', async () => {
    const notJson = await fetch(`${t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'redirect_uris=x',
    })
    expect(notJson.status).toBe(415)
    expect(notJson.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
    const huge = await fetch(`${t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...base, client_name: 'x'.repeat(64 * 1024) }),
    })
    expect(huge.status).toBe(413)
    expect(huge.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
  })

  it('gives a registered client no way to client_credentials tokens', async () => {
    const { body } = await register({ ...base, token_endpoint_auth_method: 'client_secret_post' })
    const res = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: String(body.client_id),
        client_secret: String(body.client_secret),
        scope: 'api.read',
      }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error_description: 'requested grant type is not allowed for this client' })
    // The machine client of the file still can.
    expect(await t.token('machine')).toMatch(/^eyJ/)
  })
})

describe('Client ID Metadata Documents', () => {
  const authorize = (gateway: BuiltGateway, clientId: string, redirect: string) =>
    fetch(
      `${gateway.url}/oauth/authorize?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: redirect, scope: 'mcp.tools.invoke', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })}`,
      { redirect: 'manual' },
    )
  const publish = (path: string, doc: Record<string, unknown> | string) =>
    docs.bodies.set(path, typeof doc === 'string' ? doc : JSON.stringify(doc))
  const document = (path: string, extra: Record<string, unknown> = {}) => ({
    client_id: `${DOCS_HOST}${path}`,
    client_name: 'Doc client',
    redirect_uris: ['https://agent.example/cb'],
    token_endpoint_auth_method: 'none',
    ...extra,
  })

  it('accepts a document that names itself and keeps to the policy: the browser goes to sign in', async () => {
    publish('/good.json', document('/good.json'))
    const res = await authorize(t, `${DOCS_HOST}/good.json`, 'https://agent.example/cb')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(/^\/oauth\/interaction\//)
  })

  it.each([
    [
      'a document for another client_id',
      '/other.json',
      () => document('/someone-else.json'),
      'client_id does not match',
    ],
    [
      'the client_credentials grant',
      '/machine.json',
      () =>
        document('/machine.json', {
          grant_types: ['client_credentials'],
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [] },
        }),
      'grant_types may only contain authorization_code and refresh_token',
    ],
    [
      'an http redirect on a public host',
      '/http.json',
      () => document('/http.json', { redirect_uris: ['http://agent.example/cb'] }),
      'must use https, or http on a loopback address',
    ],
    [
      'a shared secret',
      '/secret.json',
      () => document('/secret.json', { client_secret: 'x', token_endpoint_auth_method: 'client_secret_post' }),
      'must not use shared-secret',
    ],
    [
      'a document over 5 KiB',
      '/big.json',
      () => document('/big.json', { client_name: 'x'.repeat(6000) }),
      'document fetch failed',
    ],
    ['a document that is not JSON', '/broken.json', () => '{"client_id":', 'document fetch failed'],
  ])('refuses %s, on a page rather than a redirect', async (_name, path, make, reason) => {
    publish(path, make())
    const res = await authorize(t, `${DOCS_HOST}${path}`, 'https://agent.example/cb')
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(res.headers.get('location')).toBeNull()
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await res.text()
    expect(html).toContain('Sign-in cannot continue')
    expect(html).toContain(reason)
  })

  it('does not fetch documents from private or loopback addresses', async () => {
    const clientId = `${docs.url.replace('http:', 'https:')}/loopback.json`
    publish('/loopback.json', { ...document('/loopback.json'), client_id: clientId })
    const res = await authorize(guarded, clientId, 'https://agent.example/cb')
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('client_id metadata document fetch failed')
  })
})
