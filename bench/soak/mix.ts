/**
 * The soak's request mix: every request names what it should get back, so
 * any other answer (or a network error) counts as unexpected. Bad requests
 * are part of the mix on purpose; their 4xx answers are expected.
 */
import { COLLECTION_NAMES, type CollectionName } from '../corpus/collections.ts'
import { generateApiKey } from '../../gateway/auth/api-key.ts'

export interface Planned {
  kind: string
  /** A fetch request, or raw bytes for a socket when fetch would refuse them. */
  path: string
  init?: RequestInit
  raw?: string
  expect: readonly number[]
  /** For MCP: a JSON-RPC result (not an error) is expected. */
  jsonRpcResult?: boolean
}

export interface MixContext {
  slugs: Record<CollectionName, string[]>
  etags: Map<string, string>
  agentKey: string
  clientBasic: string
  /** This worker's address as the trusted proxy reports it. */
  ip: string
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!
const int = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1))

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
const rpc = (method: string, params: object) => JSON.stringify({ jsonrpc: '2.0', id: int(1, 1e6), method, params })

/** Reads: lists, items, the long tail and conditional requests (most of the traffic, as on a CDN miss). */
export function readRequest(ctx: MixContext): Planned {
  const collection = pick(COLLECTION_NAMES)
  const roll = Math.random()
  if (roll < 0.3) return { kind: 'list', path: `/api/${collection}?limit=${int(1, 100)}`, expect: [200] }
  if (roll < 0.55) return { kind: 'item', path: `/api/${collection}/${pick(ctx.slugs[collection])}`, expect: [200] }
  if (roll < 0.85) {
    const tag = Math.random() < 0.3 ? `&tag=${pick(['data-contracts', 'observability', 'lineage', 'no-such-tag'])}` : ''
    return { kind: 'long-tail', path: `/api/${collection}?limit=${int(1, 20)}&page=${int(1, 30)}${tag}`, expect: [200] }
  }
  const path = `/api/${collection}?limit=${int(1, 100)}`
  const etag = ctx.etags.get(path)
  if (!etag) return { kind: 'list', path, expect: [200] }
  return { kind: 'conditional', path, init: { headers: { 'if-none-match': etag } }, expect: [304] }
}

/** Dynamic routes: MCP tools and resources, tokens. */
export function dynamicRequest(ctx: MixContext): Planned {
  const headers = { ...MCP_HEADERS, authorization: `Bearer ${ctx.agentKey}`, 'x-forwarded-for': ctx.ip }
  const collection = pick(COLLECTION_NAMES)
  const roll = Math.random()
  if (roll < 0.1) {
    return {
      kind: 'token',
      path: '/oauth/token',
      init: {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${ctx.clientBasic}`,
          'x-forwarded-for': ctx.ip,
        },
        body: 'grant_type=client_credentials&scope=mcp.tools.invoke',
      },
      expect: [200],
    }
  }
  const body =
    roll < 0.4
      ? rpc('tools/call', {
          name: 'search_content',
          arguments: {
            query: pick(['data contracts', 'lineage', 'observability', 'webinar', 'customer story', 'quality']),
          },
        })
      : roll < 0.6
        ? rpc('tools/call', { name: 'list_content', arguments: { collection, limit: int(1, 20) } })
        : roll < 0.8
          ? rpc('tools/call', { name: 'get_content', arguments: { collection, slug: pick(ctx.slugs[collection]) } })
          : rpc('resources/read', { uri: `content://${collection}/${pick(ctx.slugs[collection])}` })
  return { kind: 'mcp', path: '/mcp', init: { method: 'POST', headers, body }, expect: [200], jsonRpcResult: true }
}

/** Hostile or broken requests, each with the answer it must get. */
export function badRequest(ctx: MixContext): Planned {
  const roll = Math.random()
  if (roll < 0.2)
    return { kind: 'bad-param', path: `/api/blog-posts?limit=${pick(['0', '101', 'abc', '1.5', '-1'])}`, expect: [400] }
  if (roll < 0.35)
    return {
      kind: 'not-found',
      path: pick(['/api/nope', '/api/events/no-such-event', '/%2e%2e/package.json', '/etc/passwd']),
      expect: [404],
    }
  if (roll < 0.45) return { kind: 'method', path: '/api/webinars', init: { method: 'DELETE' }, expect: [405] }
  if (roll < 0.6) {
    // One made-up token per worker: a token shared by all of them would reach its credential quota.
    const headers = { ...MCP_HEADERS, authorization: `Bearer not-a-real-token-${ctx.ip}`, 'x-forwarded-for': ctx.ip }
    return { kind: 'bad-token', path: '/mcp', init: { method: 'POST', headers, body: rpc('ping', {}) }, expect: [401] }
  }
  if (roll < 0.7) {
    const headers = { ...MCP_HEADERS, authorization: `Bearer ${ctx.agentKey}`, 'x-forwarded-for': ctx.ip }
    return {
      kind: 'oversized',
      path: '/mcp',
      init: { method: 'POST', headers, body: rpc('ping', { pad: 'x'.repeat(300 * 1024) }) },
      expect: [413],
    }
  }
  if (roll < 0.85)
    return { kind: 'malformed', path: '', raw: 'GET /api/\0x HTTP/1.1\r\nHost: x\r\n\r\n', expect: [400] }
  return {
    kind: 'huge-header',
    path: '',
    raw: `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    expect: [431],
  }
}

const TOKEN_FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`

/** Someone guessing from one address: made-up API keys on /mcp and secrets of made-up clients, in turn. */
export function guessRequest(n: number): Planned {
  const address = '10.6.6.6'
  if (n % 2 === 0) {
    const headers = { ...MCP_HEADERS, authorization: `Bearer ${generateApiKey('live')}`, 'x-forwarded-for': address }
    return {
      kind: 'guess-key',
      path: '/mcp',
      init: { method: 'POST', headers, body: rpc('ping', {}) },
      expect: [401, 429],
    }
  }
  const headers = { ...TOKEN_FORM, authorization: basic(`guess-${n}`, `secret-${n}`), 'x-forwarded-for': address }
  return {
    kind: 'guess-secret',
    path: '/oauth/token',
    init: { method: 'POST', headers, body: 'grant_type=client_credentials' },
    expect: [401, 429],
  }
}

/** Someone spraying wrong secrets for the workers' own client id from ever new addresses. */
export function sprayRequest(n: number): Planned {
  const headers = {
    ...TOKEN_FORM,
    authorization: basic('soak', `wrong-${n}`),
    'x-forwarded-for': `10.7.${Math.floor(n / 250) % 250}.${n % 250}`,
  }
  return {
    kind: 'spray-secret',
    path: '/oauth/token',
    init: { method: 'POST', headers, body: 'grant_type=client_credentials' },
    expect: [401, 429],
  }
}

/** An address of its own for the n-th request of an anonymous flood (`10.<block>.x.y`). */
const freshAddress = (block: number, n: number) => `10.${block}.${Math.floor(n / 250) % 250}.${n % 250}`

/**
 * Anonymous registrations: every fourth from one address (201 until its hourly budget, then 429), the
 * rest each from a new one (201 until the registered clients' ceiling, then 503).
 */
export function registrationRequest(n: number): Planned {
  const address = n % 4 === 0 ? '10.8.8.8' : freshAddress(11, n)
  return {
    kind: 'register',
    path: '/oauth/register',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none' }),
    },
    expect: [201, 429, 503],
  }
}

/**
 * Anonymous authorization starts with a registered client, never finished: every fourth from one
 * address (303 to the sign-in page until its hourly budget, then 429), the rest each from a new one
 * (303 until the ceiling on authorization requests in progress, then 503).
 */
export function authorizationRequest(n: number, clientId: string): Planned {
  const address = n % 4 === 0 ? '10.8.8.9' : freshAddress(12, n)
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:9/callback',
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: String(n),
  })
  return {
    kind: 'authorize',
    path: `/oauth/authorize?${query}`,
    init: { redirect: 'manual', headers: { 'x-forwarded-for': address } },
    expect: [303, 429, 503],
  }
}
