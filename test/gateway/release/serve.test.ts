/**
 * Publishing on time with `npm start`: the serve command (gateway/serve.ts,
 * the entry `npm start` runs) over a project built with the real clock, an
 * item scheduled a minute ahead and another expiring after it. Without a
 * restart or a signal the same process builds again at each time and swaps:
 * the item appears in the list, the feeds and search; the expiring one goes,
 * its tombstone in /api/changes. Until then no answer may be cached past the
 * release. The times are the real clock's (no BUILD_TIME): the test waits.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChangesEnvelope } from '../../../contract/changes.ts'
import { initAndCommit } from '../../helpers/git.ts'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../../helpers/project.ts'

const run = promisify(execFile)
/** The real clock: this test's builds and gateway are as of now. */
const NOW_ENV = { BUILD_TIME: '' }

const second = (ms: number) => new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')
const RELEASE = second(Date.now() + 60_000)
const EXPIRY = second(Date.parse(RELEASE) + 15_000)

let project: TempProject
let server: ChildProcess
let url: string
let stdout = ''
let stderr = ''

async function json<T>(path: string): Promise<T> {
  const response = await fetch(`${url}${path}`)
  expect(response.status, path).toBe(200)
  return (await response.json()) as T
}

const slugs = async () =>
  (await json<{ data: { slug: string }[] }>('/api/blog-posts?limit=100')).data.map((r) => r.slug)

async function until(check: () => Promise<boolean>, what: string, limitMs = 180_000): Promise<void> {
  const end = Date.now() + limitMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${limitMs / 1000} s\n${stderr}\n${stdout.slice(-4000)}`)
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** max-age and the stale allowances of a Cache-Control value. */
function lifetimes(value: string | null): { fresh: number; stale: number } {
  const get = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(value ?? '')?.[1] ?? 0)
  return { fresh: get('max-age'), stale: get('stale-while-revalidate') }
}

beforeAll(async () => {
  project = await createProject({
    'content/blog-posts/hello.md': validPost('Hello'),
    'content/blog-posts/launch.md': validPost('Launch on time')
      .replace('published_at: 2026-01-05', `published_at: ${RELEASE}`)
      .replace('First paragraph of the post.', 'The quokka protocol ships today.'),
    'content/blog-posts/offer.md': validPost('Limited offer', `expires_at: ${EXPIRY}\n`),
  })
  await initAndCommit(project.root, Math.floor(Date.now() / 1000) - 60)
  // `npm start` as it runs: the build, then the gateway serving its dist/.
  await run(
    join(REPO_ROOT, 'node_modules/.bin/tsx'),
    [join(REPO_ROOT, 'build/cli.ts'), 'build', '--root', project.root],
    {
      env: { ...process.env, ...NOW_ENV },
    },
  )
  server = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'gateway/serve.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...NOW_ENV, PORT: '0', DIST_DIR: project.dist, LOG_LEVEL: 'info' },
  })
  server.stdout!.on('data', (d) => (stdout += d))
  url = await new Promise<string>((resolve, reject) => {
    server.stderr!.on('data', (d) => {
      stderr += d
      const match = /at (http:\/\/\S+)/.exec(stderr)
      if (match) resolve(match[1]!)
    })
    server.once('exit', (code) => reject(new Error(`the gateway exited with ${code}: ${stderr}`)))
  })
}, 120_000)

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r))
    server.kill('SIGTERM')
    await exited
  }
  await project?.remove()
})

describe('npm start at a release time', () => {
  let cursor: string

  it('serves the build without the scheduled item, stating the release, and caches nothing past it', async () => {
    const health = await json<{ build: { next_release_at: string | null } }>('/api/health')
    // The build was made before the release (else this machine took over a minute to build and start).
    expect(health.build.next_release_at).toBe(RELEASE)
    expect(await slugs()).toEqual(['hello', 'offer'])
    cursor = (await json<ChangesEnvelope>('/api/changes')).meta.next_cursor
    for (const path of [
      '/api/blog-posts',
      '/api/blog-posts',
      '/feeds/all.json',
      '/api/search?q=hello',
      '/openapi.json',
    ]) {
      const asked = Date.now()
      const response = await fetch(`${url}${path}`)
      await response.arrayBuffer()
      const { fresh, stale } = lifetimes(response.headers.get('cache-control'))
      expect(fresh + stale, `${path}: ${response.headers.get('cache-control')}`).toBeLessThanOrEqual(
        Math.ceil((Date.parse(RELEASE) - asked) / 1000),
      )
    }
  })

  it('publishes the item at its time without a restart: in the list, the feeds and search', async () => {
    const pid = server.pid
    await until(async () => (await slugs()).includes('launch'), 'the release')
    expect(server.pid).toBe(pid)
    expect(server.exitCode).toBeNull()
    expect(JSON.stringify(await json('/feeds/all.json'))).toContain('Launch on time')
    const found = await json<{ data: { slug: string }[] }>('/api/search?q=quokka')
    expect(found.data.map((h) => h.slug)).toEqual(['launch'])
    // Its log says so (the lines go out in batches, a moment later).
    await until(async () => stdout.includes('"msg":"release: serving"'), 'the log line', 10_000)
  }, 240_000)

  it('takes the expiring item down at its time, its tombstone in the change feed', async () => {
    await until(async () => !(await slugs()).includes('offer'), 'the expiry')
    expect((await fetch(`${url}/api/blog-posts/offer`)).status).toBe(404)
    const since = await json<ChangesEnvelope>(`/api/changes?since=${cursor}`)
    expect(since.data.map((e) => [e.change, e.slug, e.changed_at])).toEqual([
      ['created', 'launch', RELEASE],
      ['deleted', 'offer', EXPIRY],
    ])
    const health = await json<{ build: { next_release_at: string | null } }>('/api/health')
    expect(health.build.next_release_at).toBeNull()
    expect(server.exitCode).toBeNull()
  }, 240_000)
})
