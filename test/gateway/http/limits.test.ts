/**
 * Resource limits over real HTTP: header size (431), malformed requests (400),
 * body caps on the routes that read a body (413, declared or streamed; that
 * the client gets it every time: lingering-close.test.ts), the per-request
 * timeout (503 /problems/timeout), and the caps on list work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { H3 } from 'h3'
import { buildSite } from '../../../build/compiler/build.ts'
import { deadlineOf } from '../../../gateway/http/timeout.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { problemDefect } from '../../helpers/problem-assert.ts'
import { rawRequest } from '../../helpers/raw-http.ts'
import { until } from '../../helpers/until.ts'
import { ROUTES } from '../../../contract/routes/index.ts'
import type { Route } from '../../../contract/routes/route.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { MCP_PATH, TOKEN_PATH } from '../../../contract/public-paths.ts'

/** Every route of the table that reads a body, at a path of its own (`{uid}` filled in). */
const BODY_ROUTES = (Object.values(ROUTES) as Route[]).flatMap((route) =>
  route.body
    ? [{ path: route.path.replace(/\{[^}]+\}/g, 'x'), types: route.body.types, documented: 'operations' in route }]
    : [],
)

let project: TempProject
let gateway: TestGateway
let aborted: unknown

/** A route that takes longer than the gateway allows, to see the timeout answer (test-only plugin). */
const slowRoute = (app: H3) => {
  app.get('/__slow', async (event) => {
    const signal = deadlineOf(event)
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 3_000)
      signal?.addEventListener('abort', () => {
        aborted = signal.reason
        clearTimeout(timer)
        resolve(undefined)
      })
    })
    return 'too late'
  })
}

beforeAll(async () => {
  project = await copyOfFixtureContent()
  await buildSite({ root: project.root })
  gateway = await startGateway(project.dist, {
    platform: { routes: [slowRoute] },
    env: {
      REQUEST_TIMEOUT_MS: '300',
      MCP_MAX_BODY_BYTES: '4096',
      TOKEN_MAX_BODY_BYTES: '1024',
      RATE_LIMIT_PER_MINUTE: '0',
    },
  })
})
afterAll(async () => {
  await gateway?.close()
  await project?.remove()
})

async function expectProblem(res: Response, status: number, type: string) {
  const text = await res.text()
  expect(res.status).toBe(status)
  expect(problemDefect(status, res.headers.get('content-type'), text)).toBeUndefined()
  expect(JSON.parse(text).type).toBe(`/problems/${type}`)
}

async function expectHealthy() {
  const res = await fetch(`${gateway.url}/api/health`)
  expect(res.status).toBe(200)
}

describe('header size', () => {
  it('answers 431 with a problem body for headers over 16 KiB, and keeps serving', async () => {
    const res = await rawRequest(
      gateway.url,
      `GET /api/blog-posts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    )
    expect(res.status).toBe(431)
    expect(problemDefect(431, res.headers['content-type'] ?? null, res.body)).toBeUndefined()
    expect(JSON.parse(res.body).type).toBe('/problems/headers-too-large')
    await expectHealthy()
  })

  it('counts many small headers together', async () => {
    const many = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'v'.repeat(40)}`).join('\r\n')
    const res = await rawRequest(gateway.url, `GET / HTTP/1.1\r\nHost: x\r\n${many}\r\n\r\n`)
    expect(res.status).toBe(431)
    await expectHealthy()
  })

  it('gives fetch callers the same problem', async () => {
    const res = await fetch(`${gateway.url}/api/health`, { headers: { 'x-big': 'b'.repeat(20_000) } })
    await expectProblem(res, 431, 'headers-too-large')
  })
})

describe('malformed requests', () => {
  it.each([
    ['a request line that is not HTTP', 'HELLO\r\n\r\n'],
    ['a NUL in the target', 'GET /api/\0blog-posts HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a header without a colon', 'GET / HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n'],
    [
      'both Content-Length and Transfer-Encoding',
      'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['a bad chunk size', 'POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
  ])('answers 400 problem+json for %s', async (_, request) => {
    const res = await rawRequest(gateway.url, request)
    expect(res.status).toBe(400)
    expect(problemDefect(400, res.headers['content-type'] ?? null, res.body)).toBeUndefined()
    await expectHealthy()
  })
})

describe('body caps', () => {
  it.each([
    [MCP_PATH, 4096],
    [TOKEN_PATH, 1024],
  ])('%s: 413 for a declared body over %i bytes', async (path, cap) => {
    const res = await fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(cap + 1),
    })
    await expectProblem(res, 413, 'payload-too-large')
    await expectHealthy()
  })

  it.each([
    [MCP_PATH, 4096, 'application/json'],
    [TOKEN_PATH, 1024, 'application/x-www-form-urlencoded'],
  ])('%s: 413 for a streamed (chunked) body that grows past %i bytes', async (path, cap, type) => {
    const chunk = new TextEncoder().encode('y'.repeat(512))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > cap * 4) return controller.close()
        sent += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const res = await fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': type },
      body,
      duplex: 'half',
    } as RequestInit)
    await expectProblem(res, 413, 'payload-too-large')
    await expectHealthy()
  })

  it.each(BODY_ROUTES.map((r) => [r.path, r.types.join(', '), r]))(
    '%s: a 415 problem for a body that is not %s, before the route sees it',
    async (path, types, route) => {
      const res = await fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      })
      // The OpenAPI document describes the answer of every API route the limit guards (the sign-in forms are pages, not API).
      if (route.documented) await assertMatchesContract('POST', path, res.clone())
      await expectProblem(res, 415, 'unsupported-media-type')
      expect(res.headers.get('accept')).toBe(types)
    },
  )

  it('lets a body under the cap through to the route (no 413)', async () => {
    // The route loads the authorization server on first use, which may take longer than this gateway's
    // short timeout (a 503 /problems/timeout): ask until it is loaded.
    const res = await until(
      () =>
        fetch(`${gateway.url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials',
        }),
      { holds: (r) => r.status !== 503, what: 'the token endpoint', show: (r) => String(r.status) },
    )
    expect(res.status).not.toBe(413)
    expect(res.status).toBeLessThan(500)
  })
})

describe('request timeout', () => {
  it('answers 503 /problems/timeout when a handler is too slow, and tells the handler to stop', async () => {
    aborted = undefined
    const res = await fetch(`${gateway.url}/__slow`)
    await expectProblem(res, 503, 'timeout')
    expect(res.headers.get('retry-after')).toBe('1')
    expect(aborted).toBeInstanceOf(Error)
    await expectHealthy()
  })
})

describe('bounded work per request', () => {
  it.each([
    '/api/blog-posts?limit=101',
    '/api/blog-posts?limit=1000000',
    '/api/blog-posts?page=100001',
    '/api/blog-posts?page=99999999999999999999',
    `/api/blog-posts?tag=${'a'.repeat(51)}`,
    '/api/blog-posts?limit=1&limit=2',
  ])('rejects %s with 400', async (path) => {
    await expectProblem(await fetch(`${gateway.url}${path}`), 400, 'invalid-parameter')
  })
})
