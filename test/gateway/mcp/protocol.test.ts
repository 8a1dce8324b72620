/**
 * /mcp at the wire level for protocol revision 2026-07-28 beside the 2025
 * era: negotiation by real clients, server/discover, the cache fields, the
 * standard headers checked against the body, and the answers the revision
 * prescribes when they are wrong.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTENT_TTL_MS, SURFACE_TTL_MS } from '../../../gateway/mcp/cache.ts'
import { API_VERSION } from '../../../contract/lifecycle.ts'
import {
  connectModern,
  INITIALIZE,
  LEGACY,
  MCP_HEADERS,
  MODERN,
  MODERN_META,
  startMcpGateway,
  type McpTestGateway,
} from './setup.ts'

let t: McpTestGateway
beforeAll(async () => {
  t = await startMcpGateway()
})
afterAll(() => t?.close())

const META = MODERN_META
/** Where each method mirrors its Mcp-Name from. */
const NAME_OF: Record<string, (params: Record<string, unknown>) => unknown> = {
  'tools/call': (p) => p.name,
  'prompts/get': (p) => p.name,
  'resources/read': (p) => p.uri,
}

interface Rpc {
  status: number
  headers: Headers
  body: {
    id?: unknown
    result?: Record<string, unknown>
    error?: { code: number; message: string; data?: Record<string, unknown> }
  }
}

/** A 2026-07-28 request as a conforming client sends it: envelope in _meta, standard headers; `headers` overrides them. */
async function modern(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | null> = {},
  meta = META,
): Promise<Rpc> {
  const name = NAME_OF[method]?.(params)
  const all: Record<string, string | null> = {
    ...MCP_HEADERS,
    authorization: `Bearer ${t.agentKey}`,
    'mcp-protocol-version': meta['io.modelcontextprotocol/protocolVersion'],
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    ...headers,
  }
  const sent = Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== null))
  const res = await fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: sent,
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta } }),
  })
  return { status: res.status, headers: res.headers, body: (await res.json()) as Rpc['body'] }
}

describe('negotiation', () => {
  it('an SDK v2 client negotiates 2026-07-28 (server/discover, no handshake), with or without a pin', async () => {
    const pinned = await connectModern(t.url, t.agentKey)
    expect(pinned.getProtocolEra()).toBe('modern')
    expect(pinned.getNegotiatedProtocolVersion()).toBe(MODERN)
    expect(pinned.getServerVersion()).toMatchObject({ name: 'content-api', version: API_VERSION })
    await pinned.close()
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client')
    const auto = new Client({ name: 'auto', version: '1' }, { versionNegotiation: { mode: 'auto' } })
    await auto.connect(
      new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${t.agentKey}` } },
      }),
    )
    expect(auto.getNegotiatedProtocolVersion()).toBe(MODERN)
    await auto.close()
  })

  it('an SDK v1 client gets 2025-11-25 through the initialize handshake, stateless (no session id)', async () => {
    const transport = new LegacyTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${t.agentKey}` } },
    })
    const client = new LegacyClient({ name: 'v1', version: '1' })
    await client.connect(transport)
    expect(transport.protocolVersion).toBe(LEGACY)
    expect(transport.sessionId).toBeUndefined()
    expect((await client.listTools()).tools.length).toBe(9)
    await client.close()
  })
})

describe('server/discover and the cache fields', () => {
  it('describes the server: its per-request revision, capabilities without listChanged, identity, cacheable for 5 minutes', async () => {
    const { status, headers, body } = await modern('server/discover')
    expect(status).toBe(200)
    expect(headers.get('content-type')).toMatch(/^application\/json/)
    expect(headers.get('cache-control')).toBe('no-store')
    expect(headers.get('x-request-id')).toBeTruthy()
    expect(headers.get('mcp-session-id')).toBeNull()
    expect(body.id).toBe(7)
    expect(body.result).toMatchObject({
      // The per-request revisions; 2025-era clients reach the same endpoint through initialize.
      supportedVersions: [MODERN],
      capabilities: {
        tools: { listChanged: false },
        prompts: { listChanged: false },
        resources: { listChanged: false },
        completions: {},
      },
      instructions: expect.stringContaining('search_content'),
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'content-api', version: API_VERSION } },
      ttlMs: SURFACE_TTL_MS,
      cacheScope: 'public',
    })
  })

  it('says how long lists and reads stay fresh: tools, prompts and templates 5 minutes, items 1 minute; all public', async () => {
    for (const [method, params, ttlMs] of [
      ['tools/list', {}, SURFACE_TTL_MS],
      ['prompts/list', {}, SURFACE_TTL_MS],
      ['resources/templates/list', {}, SURFACE_TTL_MS],
      ['resources/list', {}, CONTENT_TTL_MS],
      ['resources/read', { uri: 'content://blog-posts/data-contracts-in-ci' }, CONTENT_TTL_MS],
    ] as const) {
      const { status, body } = await modern(method, params)
      expect(status, method).toBe(200)
      expect(body.result, method).toMatchObject({ ttlMs, cacheScope: 'public' })
    }
    const call = await modern('tools/call', { name: 'search', arguments: { query: 'lineage' } })
    expect(call.body.result).toMatchObject({ structuredContent: { results: expect.any(Array) } })
    expect(call.body.result).not.toHaveProperty('ttlMs')
  })

  it('leaves the cache fields out of 2025-era answers', async () => {
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${t.agentKey}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    const { result } = (await res.json()) as Rpc['body']
    expect(result?.tools).toBeDefined()
    expect(result).not.toHaveProperty('ttlMs')
    expect(result).not.toHaveProperty('cacheScope')
  })
})

describe('standard headers against the body', () => {
  const expectMismatch = ({ status, body }: Rpc) => {
    expect(status).toBe(400)
    expect(body).toMatchObject({ id: 7, error: { code: -32020 } })
  }

  it("refuses an Mcp-Method that is not the body's method, or none, with 400 and -32020 (HeaderMismatch)", async () => {
    expectMismatch(
      await modern('tools/call', { name: 'search', arguments: { query: 'x' } }, { 'mcp-method': 'tools/list' }),
    )
    expectMismatch(await modern('tools/list', {}, { 'mcp-method': null }))
  })

  it('refuses an Mcp-Name that is not the tool, prompt or resource of the body, or none', async () => {
    expectMismatch(
      await modern(
        'tools/call',
        { name: 'fetch', arguments: { id: 'blog-posts/data-contracts-in-ci' } },
        { 'mcp-name': 'search' },
      ),
    )
    expectMismatch(
      await modern(
        'tools/call',
        { name: 'fetch', arguments: { id: 'blog-posts/data-contracts-in-ci' } },
        { 'mcp-name': null },
      ),
    )
    expectMismatch(
      await modern(
        'resources/read',
        { uri: 'content://blog-posts/data-contracts-in-ci' },
        { 'mcp-name': 'content://blog-posts/other' },
      ),
    )
    expectMismatch(
      await modern(
        'prompts/get',
        { name: 'topic_roundup', arguments: { tag: 'data-contracts' } },
        { 'mcp-name': 'upcoming_events_brief' },
      ),
    )
  })

  it("accepts an Mcp-Name in the Base64 sentinel form when it decodes to the body's name", async () => {
    const { status, body } = await modern(
      'tools/call',
      { name: 'search', arguments: { query: 'lineage' } },
      { 'mcp-name': `=?base64?${Buffer.from('search').toString('base64')}?=` },
    )
    expect(status).toBe(200)
    expect(body.result).toMatchObject({ structuredContent: { results: expect.any(Array) } })
  })

  it('refuses an MCP-Protocol-Version header that disagrees with the envelope, or is missing', async () => {
    expectMismatch(await modern('tools/list', {}, { 'mcp-protocol-version': LEGACY }))
    expectMismatch(await modern('tools/list', {}, { 'mcp-protocol-version': null }))
  })

  it('refuses an initialize handshake sent with the 2026-07-28 header', async () => {
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        ...MCP_HEADERS,
        authorization: `Bearer ${t.agentKey}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'initialize',
      },
      body: INITIALIZE,
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: { code: -32020 } })
  })
})

describe('what the revision prescribes for the rest', () => {
  it('answers a revision it does not serve with 400 and -32022, naming the ones it does', async () => {
    const { status, body } = await modern(
      'tools/list',
      {},
      {},
      { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
    )
    expect(status).toBe(400)
    expect(body.error).toMatchObject({
      code: -32022,
      data: { supported: expect.arrayContaining([MODERN]), requested: '2099-01-01' },
    })
  })

  it('answers an unknown method, and subscriptions/listen (nothing to listen to), with 404 and -32601', async () => {
    for (const [method, params] of [
      ['tools/explode', {}],
      ['subscriptions/listen', { notifications: { toolsListChanged: true } }],
    ] as const) {
      const { status, headers, body } = await modern(method, params)
      expect(status, method).toBe(404)
      expect(headers.get('content-type')).toMatch(/^application\/json/)
      expect(body, method).toMatchObject({ id: 7, error: { code: -32601 } })
    }
  })

  it('keeps the credential guard in front of every revision', async () => {
    expect((await modern('server/discover', {}, { authorization: null })).status).toBe(401)
    expect((await modern('tools/list', {}, { authorization: `Bearer ${t.sandboxKey}` })).status).toBe(403)
  })
})
