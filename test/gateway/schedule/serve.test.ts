/**
 * Publishing on time with `npm start`: the serve command (gateway/serve.ts,
 * the entry `npm start` runs) over a project built with the real clock, an
 * item scheduled half a minute ahead and another expiring after it. Without a
 * restart or a signal the same process builds again at each time and swaps:
 * the item appears in the list, the feeds and search; the expiring one goes,
 * its tombstone in /api/changes; a webhook subscriber is told of both
 * (signed, verified with the Standard Webhooks library). Until then no answer
 * may be cached past the release. The site is multilingual: the German
 * translation of the scheduled item, dated long before it, comes out with it,
 * and the German translation of the expiring one goes with it. The times are
 * the real clock's (no BUILD_TIME): the test waits.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChangesEnvelope } from '../../../contract/changes.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { generateSecretsKey } from '../../../gateway/webhooks/secrets.ts'
import { runCommand } from '../../helpers/commands.ts'
import { initAndCommit } from '../../helpers/git.ts'
import { createProject, SITE_YAML, validPost, type TempProject } from '../../helpers/project.ts'
import { serveProcess, type ServeProcess } from '../../helpers/serve-process.ts'
import { until } from '../../helpers/until.ts'
import { startReceiver, type Receiver } from '../webhooks/receiver.ts'

/** The real clock: this test's builds and gateway are as of now. */
const NOW_ENV = { BUILD_TIME: '' }

const second = (ms: number) => new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')
/** Set as the project is written (not as the file loads): far enough ahead for the build and the start. */
let RELEASE: string
let EXPIRY: string

let project: TempProject
let server: ServeProcess
let url: string
let receiver: Receiver

async function json<T>(path: string): Promise<T> {
  const response = await fetch(`${url}${path}`)
  expect(response.status, path).toBe(200)
  return (await response.json()) as T
}

const slugs = async (locale = 'en') =>
  (await json<{ data: { slug: string }[] }>(`/api/blog-posts?limit=100&locale=${locale}`)).data.map((r) => r.slug)

/** Until `check` holds: the release is half a minute away, and the rebuild takes what the machine gives it. */
const waitFor = (check: () => Promise<boolean>, what: string, timeoutMs = 180_000) =>
  until(check, {
    what,
    timeoutMs,
    everyMs: 500,
    show: () => `\n${server.stderr()}\n${server.stdout().slice(-4000)}`,
  })

/** max-age and the stale allowances of a Cache-Control value. */
function lifetimes(value: string | null): { fresh: number; stale: number } {
  const get = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(value ?? '')?.[1] ?? 0)
  return { fresh: get('max-age'), stale: get('stale-while-revalidate') }
}

beforeAll(async () => {
  RELEASE = second(Date.now() + 30_000)
  EXPIRY = second(Date.parse(RELEASE) + 15_000)
  project = await createProject({
    'content/site.yaml': `${SITE_YAML}language: en\nlocales: [en, de]\n`,
    // Published on its own date, but it is the scheduled item's translation: it waits for the item.
    'content/blog-posts/launch.de.md': validPost('Pünktlich gestartet', 'slug: start\n'),
    'content/blog-posts/offer.de.md': validPost('Befristetes Angebot', 'slug: angebot\n'),
    'content/blog-posts/hello.md': validPost('Hello'),
    'content/blog-posts/launch.md': validPost('Launch on time')
      .replace('published_at: 2026-01-05', `published_at: ${RELEASE}`)
      .replace('First paragraph of the post.', 'The quokka protocol ships today.'),
    'content/blog-posts/offer.md': validPost('Limited offer', `expires_at: ${EXPIRY}\n`),
  })
  await initAndCommit(project.root, Math.floor(Date.now() / 1000) - 60)
  // `npm start` as it runs: the build, then the gateway serving its dist/.
  const built = await runCommand('cli', ['build', '--root', project.root], NOW_ENV)
  expect(built.code, built.stderr).toBe(0)
  // A partner subscribed to every event, as the keys CLI makes subscriptions.
  receiver = await startReceiver()
  const runtime = { OAUTH_STORE_DIR: join(project.root, '.data'), WEBHOOK_SECRETS_KEY: generateSecretsKey() }
  const out: string[] = []
  const created = await runKeysCli(['webhook', 'create', '--url', receiver.url, '--events', 'all'], {
    env: runtime,
    cwd: project.root,
    out: (line) => out.push(line),
    err: () => {},
  })
  expect(created).toBe(0)
  receiver.secrets.push(out[0]!)
  server = serveProcess({ ...NOW_ENV, ...runtime, PORT: '0', DIST_DIR: project.dist })
  url = await server.url
}, 120_000)

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM')
    await server.exited
  }
  await receiver?.close()
  await project?.remove()
})

describe('npm start at a release time', () => {
  let cursor: string

  it('serves the build without the scheduled item, stating the release, and caches nothing past it', async () => {
    const health = await json<{ build: { next_release_at: string | null } }>('/api/health')
    // The build was made before the release (else this machine took half a minute to build and start).
    expect(health.build.next_release_at).toBe(RELEASE)
    expect(await slugs()).toEqual(['hello', 'offer'])
    expect(await slugs('de')).toEqual(['angebot'])
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
    const pid = server.child.pid
    await waitFor(async () => (await slugs()).includes('launch'), 'the release')
    expect(await slugs('de')).toContain('start')
    expect(server.child.pid).toBe(pid)
    expect(server.child.exitCode).toBeNull()
    expect(JSON.stringify(await json('/feeds/all.json'))).toContain('Launch on time')
    // The rebuild names the gateway's own origin, as the build of `npm start` does (contract/api-origin.ts).
    expect((await json<{ feed_url?: string }>('/feeds/all.json')).feed_url).toBe(`${url}/feeds/all.json`)
    const found = await json<{ data: { slug: string }[] }>('/api/search?q=quokka')
    expect(found.data.map((h) => h.slug)).toEqual(['launch'])
    // Its log says so (the lines go out in batches, a moment later).
    await waitFor(async () => server.stdout().includes('"msg":"release: serving"'), 'the log line', 10_000)
  }, 240_000)

  it('takes the expiring item down at its time, its tombstone in the change feed', async () => {
    await waitFor(async () => !(await slugs()).includes('offer'), 'the expiry')
    expect(await slugs('de')).toEqual(['start'])
    // Its address is gone now, not unknown.
    expect((await fetch(`${url}/api/blog-posts/offer`)).status).toBe(410)
    const since = await json<ChangesEnvelope>(`/api/changes?since=${cursor}`)
    expect(since.data.map((e) => [e.change, e.slug, e.changed_at])).toEqual([
      ['created', 'launch', RELEASE],
      ['deleted', 'offer', EXPIRY],
    ])
    const health = await json<{ build: { next_release_at: string | null } }>('/api/health')
    expect(health.build.next_release_at).toBeNull()
    expect(server.child.exitCode).toBeNull()
  }, 240_000)

  it('tells webhook subscribers of the release and the expiry, once each, in the change feed order', async () => {
    // Each event queued once (the gateway's log) and sent once: the requests that came, not the events
    // the receiver kept (it drops a repeated webhook-id, as receivers should, which would hide a duplicate).
    const queued = () =>
      server
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"msg":"webhooks: events queued"'))
        .reduce((sum, line) => sum + (JSON.parse(line) as { deliveries: number }).deliveries, 0)
    await waitFor(async () => receiver.events.length >= 2 && queued() >= 2, 'two webhook events', 60_000)
    expect(queued()).toBe(2)
    const requests = receiver.deliveries.map((d) => JSON.parse(d.body) as { type: string; data: { slug: string } })
    expect(requests.map((e) => [e.type, e.data.slug])).toEqual([
      ['content.published', 'launch'],
      ['content.removed', 'offer'],
    ])
    expect(receiver.events).toHaveLength(2)
  }, 120_000)
})
