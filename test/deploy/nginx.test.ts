/**
 * The nginx configuration written from the route table (npm run nginx),
 * with a real nginx serving dist/ in front of two real gateways: every
 * documented path, and the errors around them, answered with the same
 * status, headers and body as the gateway alone; the files straight from
 * disk, the rest from the gateways. The configuration compose.yaml mounts is
 * that output.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nginxConfig, nginxOptions } from '../../build/deploy/nginx-config.ts'
import { feedNames } from '../../contract/documents.ts'
import { documentedPaths, ROUTES } from '../../contract/routes/index.ts'
import type { Route } from '../../contract/routes/route.ts'
import { startCluster, type Cluster } from '../helpers/cluster.ts'
import { HAVE_NGINX, startNginx, type Nginx } from '../helpers/nginx.ts'
import { REPO_ROOT } from '../helpers/project.ts'
import { COLLECTION_NAMES, FIXTURE_MODEL } from '../helpers/site.ts'
import { freePort, HAVE_REDIS } from '../helpers/redis-server.ts'

/** Headers both must send alike (ETag, Last-Modified, dates and request ids are each side's own). */
const COMPARED_HEADERS = [
  'www-authenticate',
  'allow',
  'location',
  'content-type',
  'cache-control',
  'api-version',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'x-content-type-options',
  'referrer-policy',
  'content-security-policy',
  'x-total-count',
  'link',
]

interface Answer {
  status: number
  headers: Record<string, string | null>
  body: string
}

async function ask(base: string, path: string, init?: RequestInit): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { redirect: 'manual', ...init })
  const headers: Record<string, string | null> = {}
  for (const name of COMPARED_HEADERS) headers[name] = response.headers.get(name)
  // A problem names the request's id in its body: each side's own.
  const body = (await response.text()).replace(/"(request_id|instance)":"[^"]*"/g, '"$1":"…"')
  return { status: response.status, headers, body }
}

let cluster: Cluster
let nginx: Nginx

beforeAll(async () => {
  const port = await freePort()
  cluster = await startCluster({
    gateways: 2,
    env: { PUBLIC_URL: `http://127.0.0.1:${port}`, TRUST_PROXY: 'x-forwarded-for', LOG_LEVEL: 'warn' },
  })
  const upstreams = cluster.gateways.map((g) => new URL(g.url).host)
  nginx = await startNginx(nginxConfig({ upstreams, root: cluster.project.dist, listen: `127.0.0.1:${port}` }), port)
}, 120_000)
afterAll(async () => {
  await nginx?.close()
  await cluster?.close()
})

/** Every route's documented paths with their parameters given values the build has (or has not). */
async function matrix(dist: string): Promise<string[]> {
  const problems = (await readdir(join(dist, 'problems'))).map((f) => f.replace(/\.html$/, ''))
  const values: Record<string, string[]> = {
    slug: ['first-post', 'no-such-post'],
    feed: feedNames(FIXTURE_MODEL),
    calendar: ['events', 'webinars'],
    name: [...problems.slice(0, 3), 'no-such-problem'],
    collection: [...COLLECTION_NAMES],
    file: ['no-such-image.png'],
    uid: ['no-such-interaction'],
  }
  const paths = new Set<string>()
  for (const route of Object.values(ROUTES) as Route[])
    for (const { path } of documentedPaths(route, FIXTURE_MODEL)) {
      let concrete = [path]
      for (const [name, options] of Object.entries(values))
        concrete = concrete.flatMap((p) =>
          p.includes(`{${name}}`) ? options.map((v) => p.replace(`{${name}}`, v)) : [p],
        )
      for (const p of concrete) paths.add(p)
    }
  // What is around them: a folder without its slash, queries the files cannot answer, the internal files, nothing.
  for (const extra of [
    '/docs',
    '/api/blog-posts?limit=1',
    '/api/blog-posts?fields=title',
    '/api/search?q=first',
    '/_build/manifest.json',
    '/_redirects',
    '/%5Fbuild/manifest.json',
    '/no-such-page',
    '/api/nope/deeper',
  ])
    paths.add(extra)
  return [...paths]
}

describe.skipIf(!HAVE_NGINX || !HAVE_REDIS)('nginx in front of two gateways, from the route table', () => {
  it('answers every documented path as the gateway alone does', async () => {
    const paths = await matrix(cluster.project.dist)
    expect(paths.length).toBeGreaterThan(40)
    const differences: string[] = []
    for (const path of paths) {
      const [alone, proxied] = await Promise.all([ask(cluster.gateways[0]!.url, path), ask(nginx.url, path)])
      if (!isDeepStrictEqual(proxied, alone))
        differences.push(
          `${path}\n  gateway: ${JSON.stringify({ ...alone, body: alone.body.slice(0, 160) })}\n  nginx:   ${JSON.stringify({ ...proxied, body: proxied.body.slice(0, 160) })}`,
        )
    }
    expect(differences, `${differences.join('\n')}\n--- nginx ---\n${nginx.log().slice(-2000)}`).toEqual([])
  })

  it('answers other methods and preflights on files as the gateway does', async () => {
    for (const [path, init] of [
      ['/openapi.json', { method: 'POST', body: '{}' }],
      ['/feeds/all.xml', { method: 'DELETE' }],
      [
        '/openapi.json',
        { method: 'OPTIONS', headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' } },
      ],
      ['/openapi.json', { method: 'HEAD' }],
    ] as [string, RequestInit][]) {
      const [alone, proxied] = await Promise.all([
        ask(cluster.gateways[0]!.url, path, init),
        ask(nginx.url, path, init),
      ])
      expect(proxied, `${init.method} ${path}`).toEqual(alone)
    }
  })

  it('serves the files from disk and the rest from the gateways', async () => {
    const feed = await fetch(`${nginx.url}/feeds/all.xml`)
    expect(feed.status).toBe(200)
    // nginx's own ETag (size and time, not the gateway's hash of the bytes), and no request id: no gateway saw it.
    expect(feed.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/)
    expect(feed.headers.get('x-request-id')).toBeNull()
    for (const path of [
      '/api/health',
      '/api/blog-posts',
      '/_build/manifest.json',
      '/.well-known/oauth-authorization-server',
    ])
      expect((await fetch(`${nginx.url}${path}`)).headers.get('x-request-id'), path).toBeTruthy()
  })
})

describe('the configuration compose.yaml mounts', () => {
  it("is the output of npm run nginx for compose.yaml's gateways", async () => {
    const committed = await readFile(join(REPO_ROOT, 'deploy/nginx/content-api.conf'), 'utf8')
    const [, args] = /^# npm run nginx -- (.+)$/m.exec(await readFile(join(REPO_ROOT, 'compose.yaml'), 'utf8')) ?? []
    expect(args, 'compose.yaml names the command that wrote its nginx configuration').toBeDefined()
    expect(committed).toBe(nginxConfig(nginxOptions(args!.split(' '))))
  })

  it('refuses options it cannot write a configuration for, with one line', () => {
    expect(() => nginxConfig(nginxOptions([]))).toThrow(/at least one --upstream/)
    expect(() => nginxOptions(['--upstream', 'gateway'])).toThrow(/--upstream must be host:port/)
    expect(() => nginxOptions(['--upstream', 'g:1', '--root', '/srv/x; evil'])).toThrow(/--root must be a path/)
  })
})
