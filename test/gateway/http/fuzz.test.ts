/**
 * Property-based fuzzing of the real gateway over HTTP (fast-check): random
 * query strings, paths, headers and MCP bodies. For every answer: no 5xx,
 * every error a valid problem+json (or a JSON-RPC error on /mcp), nothing
 * outside dist/ ever served, and the server still healthy afterwards.
 * Malformed bytes go over raw sockets (fetch refuses to send them).
 */
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { etagOf } from '../../../contract/etag.ts'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { MANIFEST_FILE } from '../../../contract/paths.ts'
import { problemDefect, leakedMarker } from '../../helpers/problem-assert.ts'
import { MCP_HEADERS, startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { AGENT } from './agent.ts'
import { rawRequest, type RawResponse } from '../../helpers/raw-http.ts'
import { DOCS_PATH, HEALTH_PATH, MCP_PATH, OPENAPI_PATH, TOKEN_PATH } from '../../../contract/public-paths.ts'

const MCP_CAP = 16 * 1024
let t: BuiltGateway
/** ETags of every file in the build: a 200 outside the dynamic routes must be one of these. */
let distEtags: Set<string>

beforeAll(async () => {
  t = await startBuiltGateway({
    ...AGENT,
    env: { RATE_LIMIT_PER_MINUTE: '0', COMPUTED_RATE_LIMIT_PER_MINUTE: '0', MCP_MAX_BODY_BYTES: String(MCP_CAP) },
  })
  const snapshot = t.store.current()!
  distEtags = new Set([...Object.values(snapshot.manifest.files), snapshot.source.etag(MANIFEST_FILE)!])
})
afterAll(() => t?.close())
afterEach(async () => {
  // The process is still up and serving after every run, and logged no failure of its own.
  expect((await fetch(`${t.url}/api/health`)).status).toBe(200)
  expect(t.logs.filter((line) => (JSON.parse(line) as { level: string }).level === 'error')).toEqual([])
})

const RUNS = { queries: 250, paths: 250, headers: 200, mcp: 250 }
/** Answers produced at request time (not files of the build). */
const DYNAMIC = /^\/(api\/|mcp$|oauth\/|\.well-known\/oauth-)/

/** What every answer must satisfy, whatever was sent. */
function checkAnswer(
  path: string,
  status: number,
  headers: (name: string) => string | null | undefined,
  body: string,
): void {
  expect(status, `${status} for ${path.slice(0, 200)}: ${body.slice(0, 200)}`).toBeLessThan(500)
  expect(leakedMarker(body), `leak for ${path}`).toBeUndefined()
  if ([301, 302, 303, 307, 308].includes(status)) {
    const location = headers('location') ?? ''
    expect(
      location.startsWith('/') && !location.startsWith('//') && !location.startsWith('/\\'),
      `redirect to ${location}`,
    ).toBe(true)
  }
  if (status === 200 && !DYNAMIC.test(path))
    expect(distEtags.has(etagOf(Buffer.from(body))), `200 for ${path} is not a file of the build`).toBe(true)
}

/** Errors are problems; /mcp may answer JSON-RPC errors and the token endpoint RFC 6749 §5.2 errors instead. */
function checkError(status: number, contentType: string | null | undefined, body: string, path = ''): void {
  if (status < 400) return
  const json = contentType?.startsWith('application/json')
  if (json && path === MCP_PATH) {
    checkJsonRpc(body)
    return
  }
  if (json && path === TOKEN_PATH) {
    const error = JSON.parse(body) as { error?: unknown; error_description?: unknown }
    expect(error.error).toMatch(
      /^(invalid_request|invalid_client|invalid_grant|unauthorized_client|unsupported_grant_type|invalid_scope|invalid_target)$/,
    )
    return
  }
  expect(problemDefect(status, contentType ?? null, body), body.slice(0, 200)).toBeUndefined()
}

/** Each message a valid JSON-RPC 2.0 response: an id, and a result or an error with an integer code. */
function checkJsonRpc(text: string): void {
  const parsed = JSON.parse(text) as unknown
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const m = message as {
      jsonrpc?: unknown
      id?: unknown
      result?: unknown
      error?: { code?: unknown; message?: unknown }
    }
    expect(m.jsonrpc).toBe('2.0')
    expect('id' in m).toBe(true)
    expect('result' in m !== 'error' in m).toBe(true)
    if (m.error) {
      expect(Number.isInteger(m.error.code)).toBe(true)
      expect(typeof m.error.message).toBe('string')
    }
  }
}

async function get(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: string }> {
  const res = await fetch(`${t.url}${path}`, init)
  return { status: res.status, headers: res.headers, body: await res.text() }
}

const rawGet = (target: string, extra = '') =>
  rawRequest(t.url, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`)
const checkRaw = (target: string, res: RawResponse) => {
  checkAnswer(target, res.status, (n) => res.headers[n], res.body)
  checkError(res.status, res.headers['content-type'], res.body, target)
}

describe('query strings', () => {
  const key = fc.oneof(
    fc.constantFrom('limit', 'page', 'tag', 'LIMIT', 'limit[]', '__proto__', 'constructor', 'q', ''),
    fc.constantFrom('fields', 'sort', 'author', 'published_after', 'published_before', 'when', 'exclude'),
    fc.string({ maxLength: 10 }),
  )
  const value = fc.oneof(
    fc.integer({ min: -5, max: 200_000 }).map(String),
    fc.constantFrom(
      '',
      '0',
      '-1',
      '1.5',
      '1e2',
      '0x10',
      ' 1',
      '01',
      '１',
      '٣',
      'Infinity',
      'NaN',
      '100',
      '101',
      '99999999999999999999',
      'testing',
      'a--b',
      'A',
      'upcoming',
      'past',
      'title,-title',
      '-published_at,title',
      'title,slug,image',
      'id,,type',
      '2026-03-31',
      '2026-03-31T12:00:00+02:00',
      'jose-nunez',
      'José Núñez',
      'fintech,banking',
      ',',
    ),
    fc.string({ unit: 'grapheme', maxLength: 60 }),
  )
  const query = fc
    .array(fc.tuple(key, value, fc.boolean()), { maxLength: 6 })
    .map((pairs) =>
      pairs
        .map(
          ([k, v, encode]) => `${encodeURIComponent(k)}=${encode ? encodeURIComponent(v) : v.replace(/[#&\s]/g, '')}`,
        )
        .join('&'),
    )

  it('answer 200 with a bounded list or 400 invalid-parameter, never anything else', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...COLLECTION_NAMES), query, async (collection, q) => {
        const path = `/api/${collection}?${q}`
        const res = await get(path)
        checkAnswer(path, res.status, (n) => res.headers.get(n), res.body)
        expect([200, 400]).toContain(res.status)
        if (res.status === 400) {
          checkError(400, res.headers.get('content-type'), res.body)
          const problem = JSON.parse(res.body) as { type: string; errors?: unknown[] }
          expect(problem.type).toBe('/problems/invalid-parameter')
          expect(problem.errors?.length).toBeGreaterThan(0)
        } else {
          const list = JSON.parse(res.body) as { data: unknown[]; meta: { limit: number; page: number; count: number } }
          expect(list.meta.limit).toBeGreaterThanOrEqual(1)
          expect(list.meta.limit).toBeLessThanOrEqual(100)
          expect(list.data.length).toBe(list.meta.count)
          expect(list.data.length).toBeLessThanOrEqual(list.meta.limit)
        }
      }),
      { numRuns: RUNS.queries },
    )
  })
})

describe('paths', () => {
  const segment = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '..',
        '.',
        '%2e%2e',
        '%2E%2E',
        '.%2e',
        '%2e%2e%2f',
        '..%2f',
        '..%5c',
        '%2f',
        '%5c',
        '..\\',
        '%00',
        '%252e%252e',
        '%c0%ae%c0%ae',
        '%ff',
        '%',
        '%zz',
        '~',
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'api',
        'health',
        'blog-posts',
        'events',
        '_build',
        'manifest.json',
        'package.json',
        'tsconfig.json',
        'etc',
        'passwd',
        'docs',
        '.well-known',
        'openapi.json',
        'llms.txt',
        'node_modules',
        'gateway',
        'app.ts',
        'content',
        '.git',
        'config',
        'mcp',
        'oauth',
        'token',
        'jwks.json',
      ),
    },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  )
  const path = fc.oneof(
    {
      weight: 9,
      arbitrary: fc
        .tuple(fc.array(segment, { maxLength: 8 }), fc.boolean(), fc.constantFrom('', '/'))
        .map(([s, slash, lead]) => `/${lead}${s.join('/')}${slash ? '/' : ''}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('/api/blog-posts/', '/', DOCS_PATH, '/api/'), fc.integer({ min: 500, max: 20_000 }))
        .map(([p, n]) => p + 'a'.repeat(n)),
    },
  )

  it('never serve a file outside the build, never fail, and answer errors as problems', async () => {
    await fc.assert(
      fc.asyncProperty(path, async (target) => checkRaw(target, await rawGet(target))),
      { numRuns: RUNS.paths },
    )
  })

  it.each([
    '/../package.json',
    '/%2e%2e/package.json',
    '/..%2fpackage.json',
    '/api/../../etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/_build/../../tsconfig.json',
    '/docs/..%5c..%5cpackage.json',
  ])('does not serve %s', async (target) => {
    const res = await rawGet(target)
    checkRaw(target, res)
    expect(res.status).toBeGreaterThanOrEqual(400)
  })
})

describe('headers', () => {
  const TARGETS = [
    ['GET', '/api/blog-posts', ''],
    ['GET', '/api/case-studies/does-not-exist', ''],
    ['GET', HEALTH_PATH, ''],
    ['GET', OPENAPI_PATH, ''],
    ['GET', '/.well-known/oauth-protected-resource/mcp', ''],
    ['POST', MCP_PATH, '{"jsonrpc":"2.0","id":1,"method":"ping"}'],
    ['POST', TOKEN_PATH, 'grant_type=client_credentials&scope=mcp.tools.invoke'],
    ['OPTIONS', MCP_PATH, ''],
  ] as const
  const name = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'Authorization',
        'Accept',
        'Origin',
        'If-None-Match',
        'X-Request-Id',
        'Content-Type',
        'Accept-Encoding',
        'Host',
        'Mcp-Protocol-Version',
        'Mcp-Session-Id',
        'Cookie',
        'Range',
        'X-Forwarded-For',
        'Transfer-Encoding',
        'Expect',
      ),
    },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/) },
  )
  const value = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Bearer  x',
        'Basic',
        'Basic !!!',
        'Basic Og==',
        'Bearer eyJ.eyJ.sig',
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
        'bearer x',
        'Digest x',
        'Bearer ck_live_000000000000000000000000000000000',
        'Bearer ck_sandbox_x',
        '*/*;q=0',
        'application/json;q=abc',
        'text/html, */*;q=0',
        'application/problem+json',
        'text/event-stream',
        'null',
        'http://evil.example',
        'file://',
        'http://127.0.0.1.evil.example',
        '*',
        '"abc", W/"x"',
        'bytes=0-1',
        'gzip;q=0',
        'identity',
        '100-continue',
        'chunked',
      ),
    },
    { weight: 2, arbitrary: fc.string({ maxLength: 120 }) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((s) => Buffer.from(s, 'utf8').toString('latin1')),
    },
  )
  const header = fc.tuple(name, value)
  const headers = fc
    .tuple(fc.array(header, { maxLength: 10 }), fc.boolean(), fc.nat({ max: 30 }))
    .map(([hs, dup, huge]) => {
      const list = dup && hs.length ? [...hs, hs[0]!] : hs
      // Now and then one header far over the cap, to see 431 and a live server.
      return huge === 0 ? [...list, ['X-Huge', 'h'.repeat(20_000)] as [string, string]] : list
    })

  it('answer with a valid status and body for any header set, sent raw', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TARGETS), headers, async ([method, target, body], hs) => {
        const lines = hs.map(([n, v]) => `${n}: ${v.replace(/[\r\n]/g, ' ')}`)
        const type = target === MCP_PATH ? 'application/json' : 'application/x-www-form-urlencoded'
        const framing = body ? `Content-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : ''
        const request = Buffer.from(
          `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${framing}${lines.join('\r\n')}${lines.length ? '\r\n' : ''}\r\n${body}`,
          'latin1',
        )
        const res = await rawRequest(t.url, request)
        checkRaw(target, res)
        // Over the cap: 431, unless the parser rejected something else first (400).
        if (hs.some(([n, v]) => n === 'X-Huge' && v.length > 16_384)) expect([400, 431]).toContain(res.status)
      }),
      { numRuns: RUNS.headers },
    )
  })

  it('give public reads the same bytes with or without any Authorization header', async () => {
    const baseline = await get('/api/blog-posts?limit=3')
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(value, fc.constant(`Bearer ${t.keys.sandbox!}`), fc.constant(`Bearer ${t.keys.agent!}`)),
        async (authorization) => {
          const res = await get('/api/blog-posts?limit=3', {
            headers: { authorization: authorization.replace(/[^\x20-\x7e]/g, '') },
          })
          expect(res.status).toBe(200)
          expect(res.body).toBe(baseline.body)
          expect(res.headers.get('etag')).toBe(baseline.headers.get('etag'))
        },
      ),
      { numRuns: 50 },
    )
  })
})

describe('MCP bodies', () => {
  const METHODS = [
    'initialize',
    'ping',
    'tools/list',
    'tools/call',
    'resources/list',
    'resources/read',
    'resources/templates/list',
    'prompts/list',
    'prompts/get',
    'completion/complete',
    'logging/setLevel',
    'notifications/initialized',
    'notifications/cancelled',
  ]
  const TOOLS = ['search_content', 'list_content', 'get_content', 'list_upcoming', 'nope']
  const anyValue = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ unit: 'grapheme', maxLength: 300 }),
    fc.constant(undefined),
  )
  const toolArguments = fc.record(
    {
      query: anyValue,
      collection: fc.oneof(fc.constantFrom(...COLLECTION_NAMES), anyValue),
      slug: anyValue,
      limit: anyValue,
      page: anyValue,
      tag: anyValue,
    },
    { requiredKeys: [] },
  )
  const params = fc.oneof(
    fc.record(
      { name: fc.oneof(fc.constantFrom(...TOOLS), anyValue), arguments: fc.oneof(toolArguments, anyValue) },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        uri: fc.oneof(
          fc.constantFrom(
            'content://blog-posts/x',
            'content://events',
            'file:///etc/passwd',
            'content://../../package.json',
          ),
          anyValue,
        ),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        protocolVersion: fc.oneof(fc.constantFrom('2025-06-18', '2025-03-26', '1999-01-01'), anyValue),
        capabilities: anyValue,
        clientInfo: anyValue,
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue({ maxDepth: 3 }),
  )
  const message = fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('2.0'), fc.constantFrom('1.0', 2, null)),
      id: fc.oneof(
        fc.integer(),
        fc.string({ maxLength: 10 }),
        fc.constantFrom(null, 1.5),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 20 }), fc.integer()),
      params,
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  )
  const body = fc.oneof(
    { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
    { weight: 2, arbitrary: fc.array(message, { maxLength: 4 }).map((m) => JSON.stringify(m)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
  )

  it('answer JSON-RPC results or errors (or problems at the HTTP level), never a 5xx', async () => {
    const auth = { authorization: `Bearer ${t.keys.agent!}` }
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/json; charset=latin1'),
        async (text, type) => {
          const res = await fetch(`${t.url}/mcp`, {
            method: 'POST',
            headers: { ...MCP_HEADERS, ...auth, 'content-type': type },
            body: text,
          })
          const answer = await res.text()
          checkAnswer(MCP_PATH, res.status, (n) => res.headers.get(n), answer)
          if (res.status === 202) expect(answer).toBe('')
          else if (res.headers.get('content-type')?.startsWith('application/json')) checkJsonRpc(answer)
          else checkError(res.status, res.headers.get('content-type'), answer)
        },
      ),
      { numRuns: RUNS.mcp },
    )
  })

  it('answers 413 problem for an oversized body, before reading credentials', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'a'.repeat(MCP_CAP) } })
    for (const headers of [{ ...MCP_HEADERS, authorization: `Bearer ${t.keys.agent!}` }, MCP_HEADERS]) {
      const res = await fetch(`${t.url}/mcp`, { method: 'POST', headers, body: big })
      checkError(413, res.headers.get('content-type'), await res.text())
      expect(res.status).toBe(413)
    }
  })

  it('rejects a search query over the length cap as a tool input error', async () => {
    const call = (query: string) =>
      fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${t.keys.agent!}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'search_content', arguments: { query } },
        }),
      }).then((r) => r.json() as Promise<{ result?: { isError?: boolean }; error?: unknown }>)
    const ok = await call('ledger')
    expect(ok.result?.isError).toBeFalsy()
    const long = await call('ledger '.repeat(100))
    expect(long.error !== undefined || long.result?.isError === true).toBe(true)
  })
})
