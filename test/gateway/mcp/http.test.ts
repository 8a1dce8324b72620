/** /mcp at the HTTP level: method, origin and host, credentials, body size. */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectClient, INITIALIZE, MCP_HEADERS, startMcpGateway, type McpTestGateway } from './setup.ts'
import { MCP_PATH } from '../../../contract/public-paths.ts'
import { API_VERSION } from '../../../contract/lifecycle.ts'

let t: McpTestGateway
beforeAll(async () => {
  t = await startMcpGateway({
    env: { PUBLIC_URL: 'https://api.example.com', MCP_ALLOWED_ORIGINS: 'https://app.example.com' },
  })
})
afterAll(() => t?.close())

const post = (headers: Record<string, string>, body = INITIALIZE) =>
  fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body })

/** node:http, because fetch will not send a Host header of our choosing. */
function postWithHost(host: string, token: string, origin?: string): Promise<{ status: number; body: string }> {
  const url = new URL(`${t.url}/mcp`)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: MCP_PATH,
        method: 'POST',
        headers: { ...MCP_HEADERS, host, authorization: `Bearer ${token}`, ...(origin ? { origin } : {}) },
      },
      (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      },
    )
    req.on('error', reject)
    req.end(INITIALIZE)
  })
}

describe('credentials (mcp.tools.invoke)', () => {
  it('answers 401 with a Bearer challenge naming the protected-resource metadata when no token is sent', async () => {
    const res = await post({})
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    // PUBLIC_URL names the resource, as in production.
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/mcp", scope="mcp.tools.invoke"',
    )
    expect(await res.json()).toMatchObject({ type: '/problems/unauthorized', status: 401 })
  })

  it('answers 401 invalid_token for a token that is not one of ours', async () => {
    const res = await post({ authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln' })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  it('answers 403 insufficient_scope for a valid token without mcp.tools.invoke, and for a sandbox key', async () => {
    for (const credential of [await t.token(['api.read']), t.sandboxKey]) {
      const res = await post({ authorization: `Bearer ${credential}` })
      expect(res.status).toBe(403)
      expect(res.headers.get('www-authenticate')).toMatch(
        /^Bearer resource_metadata="[^"]+\/mcp", error="insufficient_scope", .*scope="mcp.tools.invoke"$/,
      )
      expect(await res.json()).toMatchObject({ type: '/problems/forbidden', status: 403 })
    }
  })

  it('lets an OAuth token with the scope and an agent.mcp API key initialize', async () => {
    for (const credential of [await t.token(['mcp.tools.invoke']), t.agentKey]) {
      const client = await connectClient(t.url, credential)
      expect(client.getServerVersion()).toMatchObject({ name: 'content-api', version: API_VERSION })
      await client.close()
    }
  })
})

describe('method, origin and host', () => {
  it('answers GET and DELETE with 405 and Allow: POST, OPTIONS (stateless: no SSE stream, no session to delete)', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await fetch(`${t.url}/mcp`, { method, headers: { accept: 'text/event-stream' } })
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('POST, OPTIONS')
      expect(await res.json()).toMatchObject({ type: '/problems/method-not-allowed', status: 405 })
    }
  })

  it('answers the CORS preflight with POST and the headers of both protocol eras allowed', async () => {
    const res = await fetch(`${t.url}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-methods')).toContain('POST')
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/)
    for (const name of ['authorization', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name'])
      expect(allowed).toContain(name)
  })

  it('refuses a foreign Origin with 403, even with a valid token', async () => {
    const token = await t.token(['mcp.tools.invoke'])
    const res = await post({ authorization: `Bearer ${token}`, origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({
      type: '/problems/forbidden',
      detail: expect.stringContaining('evil.example'),
    })
    const local = await post({ authorization: `Bearer ${token}`, origin: t.url })
    expect(local.status).toBe(200)
  })

  it('refuses a Host that is not this gateway (DNS rebinding) with 403', async () => {
    const token = await t.token(['mcp.tools.invoke'])
    const foreign = await postWithHost('evil.example:80', token)
    expect(foreign.status).toBe(403)
    expect(JSON.parse(foreign.body)).toMatchObject({ type: '/problems/forbidden' })
    const local = await postWithHost(`localhost:${new URL(t.url).port}`, token)
    expect(local.status).toBe(200)
  })

  it('accepts the host of PUBLIC_URL and the origins of MCP_ALLOWED_ORIGINS, and no other', async () => {
    const token = await t.token(['mcp.tools.invoke'])
    expect((await postWithHost('api.example.com', token)).status).toBe(200)
    expect((await postWithHost('api.example.com', token, 'https://api.example.com')).status).toBe(200)
    expect((await postWithHost('api.example.com', token, 'https://app.example.com')).status).toBe(200)
    expect((await postWithHost('api.example.com', token, 'https://other.example.com')).status).toBe(403)
    expect((await postWithHost('api.example.com', token, 'null')).status).toBe(403)
    expect((await postWithHost('other.example.com', token)).status).toBe(403)
  })
})

describe('body', () => {
  it('answers 413 for a body over the limit', async () => {
    const token = await t.token(['mcp.tools.invoke'])
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2 * 1024 * 1024) } })
    const res = await post({ authorization: `Bearer ${token}` }, huge)
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ type: '/problems/payload-too-large', status: 413 })
  })

  it('answers JSON with no-store and a request id, and a JSON-RPC parse error for a body that is not JSON', async () => {
    const token = await t.token(['mcp.tools.invoke'])
    const ok = await post({ authorization: `Bearer ${token}` })
    expect(ok.headers.get('content-type')).toMatch(/^application\/json/)
    expect(ok.headers.get('cache-control')).toBe('no-store')
    expect(ok.headers.get('x-request-id')).toBeTruthy()
    expect(ok.headers.get('mcp-session-id')).toBeNull()
    const bad = await post({ authorization: `Bearer ${token}` }, '{not json')
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } })
  })
})
