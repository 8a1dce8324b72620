/**
 * One API version everywhere: contract/lifecycle.ts's API_VERSION in the
 * OpenAPI document, /api/health, the MCP server's info, llms.txt, the
 * changelog, and the `API-Version` header of every kind of answer — the
 * app's reads and problems, the fast path's repeats, the preflight, /mcp,
 * the embedded issuer's, the function's (Gateway.fetch) — and the CDN's
 * `_headers` for static files.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { API_VERSION } from '../../../contract/lifecycle.ts'
import { MCP_HEADERS, useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent } from '../../helpers/project.ts'

describe('the API version', () => {
  const ctx = useBuiltGateway(copyOfFixtureContent, { keys: { agent: 'agent.mcp' } })
  const get = (path: string, init?: RequestInit) => fetch(`${ctx.gateway.url}${path}`, init)

  it('is the same in the document, health, MCP, llms.txt and the changelog', async () => {
    expect(API_VERSION).toMatch(/^\d+\.\d+\.\d+$/)
    const doc = (await (await get('/openapi.json')).json()) as { info: { version: string; description: string } }
    expect(doc.info.version).toBe(API_VERSION)
    expect(doc.info.description).toContain(`This API is version **${API_VERSION}**`)
    expect(((await (await get('/api/health')).json()) as { version: string }).version).toBe(API_VERSION)
    const init = await get('/mcp', {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${ctx.gateway.keys.agent}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'version-test', version: '1' } },
      }),
    })
    expect(init.headers.get('api-version')).toBe(API_VERSION)
    const body = (await init.json()) as { result: { serverInfo: { version: string } } }
    expect(body.result.serverInfo.version).toBe(API_VERSION)
    expect(await (await get('/llms.txt')).text()).toContain(`API version ${API_VERSION}`)
    expect(((await (await get('/docs/changelog.json')).json()) as { version: string }).version).toBe(API_VERSION)
  })

  it('is the API-Version header of every kind of answer', async () => {
    const list = await get('/api/blog-posts?limit=3')
    const answers: [string, Response][] = [
      ['a list', list],
      ['a 304', await get('/api/blog-posts?limit=3', { headers: { 'if-none-match': list.headers.get('etag')! } })],
      ['the same list again (the fast path)', await get('/api/blog-posts?limit=3')],
      ['a HEAD', await get('/api/health', { method: 'HEAD' })],
      ['a computed list', await get('/api/events?page=2&limit=1')],
      ['a document', await get('/openapi.json')],
      ['a 400', await get('/api/blog-posts?limit=0')],
      ['a 404', await get('/api/nothing-here')],
      ['a 405', await get('/api/health', { method: 'DELETE' })],
      [
        'the preflight',
        await get('/api/search', {
          method: 'OPTIONS',
          headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
        }),
      ],
      ['an unauthenticated /mcp', await get('/mcp', { method: 'POST', headers: MCP_HEADERS, body: '{}' })],
      ['the issuer metadata', await get('/.well-known/oauth-authorization-server')],
      [
        'the token endpoint',
        await get('/oauth/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials' }) }),
      ],
    ]
    for (const [what, res] of answers)
      expect(res.headers.get('api-version'), `${what} (${res.status})`).toBe(API_VERSION)
  })

  it('is on the function’s answers too (Gateway.fetch, as on Netlify)', async () => {
    for (const path of ['/api/health', '/mcp', '/.well-known/oauth-protected-resource', '/nothing'])
      expect(
        (await ctx.gateway.gateway.fetch(new Request(`${ctx.gateway.url}${path}`))).headers.get('api-version'),
        path,
      ).toBe(API_VERSION)
  })

  it('is in the CDN’s headers of every static file', async () => {
    const headers = await readFile(join(ctx.project.dist, '_headers'), 'utf8')
    expect(headers).toContain(`/*\n  access-control-allow-origin: *`)
    const site = headers.split(/\n(?=\/)/).find((rule) => rule.startsWith('/*\n'))!
    expect(site).toContain(`api-version: ${API_VERSION}`)
  })
})
