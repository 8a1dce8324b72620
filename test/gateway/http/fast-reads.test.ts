/**
 * The Node server's fast path (gateway/http/fast-reads.ts) answers a read it
 * has answered before in this build exactly as the app did: same status,
 * same headers in the same order, same bytes, 304 and HEAD alike, this
 * request's id, and its log line; and it leaves to the app what the app
 * would refuse (a bad Accept, another method) and every target of a new build.
 */
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { recallAnswer } from '../../../gateway/http/answer-memo.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { afterAll, beforeAll } from 'vitest'
import { CHANGES_PATH, HEALTH_PATH, LLMS_PATH, OPENAPI_PATH } from '../../../contract/public-paths.ts'

interface Raw {
  status: number
  headers: string[]
  body: Buffer
}

/** One request over a fresh connection; the raw header list keeps the order sent. */
function raw(
  url: string,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method: init.method ?? 'GET', headers: init.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.rawHeaders, body: Buffer.concat(chunks) }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** Headers but those that differ per request (date, request id, the budget's quota left), as "name: value" in order. */
const stable = (headers: string[]) =>
  headers.flatMap((v, i) =>
    i % 2 === 0 && !['date', 'x-request-id', 'ratelimit'].includes(v.toLowerCase())
      ? [`${v.toLowerCase()}: ${headers[i + 1]}`]
      : [],
  )
const requestId = (headers: string[]) =>
  headers[headers.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'x-request-id') + 1]

let project: TempProject
let gateway: TestGateway
let logs: string[]

beforeAll(async () => {
  project = await copyOfFixtureContent()
  await buildSite({ root: project.root })
  gateway = await startGateway(project.dist)
  logs = gateway.logs
})
afterAll(async () => {
  await gateway?.close()
  await project?.remove()
})

const PATHS = [
  '/api/blog-posts?limit=10',
  '/api/blog-posts/data-contracts-in-ci',
  '/api/blog-posts?limit=2&page=3',
  '/api/case-studies?limit=3&tag=data-contracts',
  '/api/search?q=ledger+reconciliation',
  CHANGES_PATH,
  OPENAPI_PATH,
  LLMS_PATH,
  HEALTH_PATH,
]

describe('the fast path for repeated reads', () => {
  it.each(PATHS)(
    '%s: the second answer (fast path) equals the first (the app), for GET, HEAD and If-None-Match',
    async (path) => {
      const first = await raw(gateway.url, path)
      expect(first.status).toBe(200)
      // Health has no ETag: there the If-None-Match below is a tag of nothing, and both answer 200.
      const etag =
        first.headers[first.headers.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'etag') + 1] ?? '"none"'
      if (path !== HEALTH_PATH) expect(etag).not.toBe('"none"')
      const viaApp = {
        head: await raw(gateway.url, path, { method: 'HEAD' }),
        notModified: await raw(gateway.url, path, { headers: { 'if-none-match': etag } }),
      }
      // The app remembered the answer, so the next GET takes the fast path.
      expect(recallAnswer(gateway.store.current()!, path)).toBeDefined()
      const before = logs.length
      const second = await raw(gateway.url, path, { headers: { 'x-request-id': 'fast-path-check-1' } })
      expect(second.status).toBe(200)
      expect(stable(second.headers)).toEqual(stable(first.headers))
      expect(second.body.equals(first.body)).toBe(true)
      expect(requestId(second.headers)).toBe('fast-path-check-1')
      const head = await raw(gateway.url, path, { method: 'HEAD' })
      expect([head.status, stable(head.headers), head.body.length]).toEqual([
        viaApp.head.status,
        stable(viaApp.head.headers),
        0,
      ])
      const notModified = await raw(gateway.url, path, { headers: { 'if-none-match': etag } })
      expect([notModified.status, stable(notModified.headers)]).toEqual([
        viaApp.notModified.status,
        stable(viaApp.notModified.headers),
      ])
      expect(viaApp.notModified.status).toBe(path === HEALTH_PATH ? 200 : 304)
      const line = logs
        .slice(before)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.request_id === 'fast-path-check-1')
      expect(line, 'the log line of the fast answer').toMatchObject({
        level: 'info',
        msg: 'request',
        method: 'GET',
        path: path.split('?')[0],
        status: 200,
        duration_ms: expect.any(Number),
      })
    },
  )

  it('leaves what the app refuses to the app: an Accept it cannot meet, another method', async () => {
    const path = '/api/blog-posts?limit=5'
    expect((await raw(gateway.url, path)).status).toBe(200)
    expect((await raw(gateway.url, path, { headers: { accept: 'text/html' } })).status).toBe(406)
    expect((await raw(gateway.url, path, { method: 'DELETE' })).status).toBe(405)
    expect((await raw(gateway.url, path, { method: 'OPTIONS' })).status).toBe(204)
  })

  it('answers from the new build once it is loaded, never from the old one', async () => {
    const path = '/api/blog-posts?limit=1'
    const before = await raw(gateway.url, path)
    await raw(gateway.url, path)
    await project.write(
      'content/blog-posts/zz-fresh.md',
      '---\ntitle: A fresh post\npublished_at: 2027-12-31\ntags: [testing]\nauthors:\n  - name: Test\n---\nNew.\n',
    )
    await buildSite({ root: project.root })
    await gateway.store.reload()
    const after = await raw(gateway.url, path)
    expect(after.body.equals(before.body)).toBe(false)
    expect((JSON.parse(after.body.toString()) as { data: { title: string }[] }).data[0]!.title).toBe('A fresh post')
  })
})
