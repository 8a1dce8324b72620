/**
 * The Netlify webhook functions' pass (gateway/netlify/webhooks-pass.ts) run
 * in this process, as a function instance runs it, over a built project and
 * the files store (the emulation test covers Blobs and the functions as
 * Netlify calls them, at minutes a call): each call is a new run with its
 * own deadline, and all it keeps is in the store.
 *
 * - A fan-out cut by the function's deadline is saved where it stopped; what
 *   it queued is sent, and the next run queues the rest, never again what
 *   was sent, with the events an uninterrupted fan-out would have made.
 * - On the function runtime, loopback is never a webhook destination unless
 *   Netlify's local emulation marks the run (NETLIFY_LOCAL), even with URL
 *   and PUBLIC_URL unset and HOST at its loopback default.
 */
import { join } from 'node:path'
import { exportJWK, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { runWebhooks } from '../../../gateway/netlify/webhooks-pass.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { BATCH } from '../../../gateway/webhooks/fan-out.ts'
import { generateSecretsKey } from '../../../gateway/webhooks/secrets.ts'
import { commitAll, initAndCommit } from '../../helpers/git.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'
import { startReceiver, type Receiver } from './receiver.ts'

const T0 = 1_777_593_600
let project: TempProject
let env: Record<string, string>
const receivers: Receiver[] = []

/** One run of `webhooks-scheduled` with `budgetMs`, in an instance whose environment also has `extra`. */
const scheduledRun = (budgetMs: number, extra: Record<string, string> = {}, dispatch = true) =>
  runWebhooks(budgetMs, { trigger: 'scheduled', deploy_id: null, context: null, ignored: null }, dispatch, {
    ...env,
    ...extra,
  })

async function keys(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = []
  const err: string[] = []
  const code = await runKeysCli(args, { env, cwd: project.root, out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out, err }
}

async function subscribe(): Promise<Receiver> {
  const receiver = await startReceiver()
  receivers.push(receiver)
  const created = await keys('webhook', 'create', '--url', receiver.url, '--events', 'all')
  expect(created.code, created.err.join('\n')).toBe(0)
  receiver.secrets.push(created.out[0]!)
  return receiver
}

async function publish(slugs: string[], time: number): Promise<void> {
  for (const slug of slugs) await project.write(`content/blog-posts/${slug}.md`, validPost(slug))
  await commitAll(project.root, `publish ${slugs.length}`, time)
}

beforeAll(async () => {
  project = await createProject({ 'content/blog-posts/first-post.md': validPost('First post') })
  await initAndCommit(project.root, T0)
  await buildSite({ root: project.root, cache: false })
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  env = {
    STATE_STORE: 'files',
    OAUTH_STORE_DIR: join(project.root, '.data'),
    OAUTH_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)),
    WEBHOOK_SECRETS_KEY: generateSecretsKey(),
    DIST_DIR: project.dist,
    LAMBDA_TASK_ROOT: project.root,
    LOG_LEVEL: 'silent',
    // As Netlify's local emulation runs a function (and the keys CLI beside it); the last test takes it away.
    NETLIFY_LOCAL: 'true',
  }
  // The first build seen starts the cursor.
  expect((await scheduledRun(20_000))?.dispatch?.kind).toBe('started')
}, 120_000)

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()))
  await project?.remove()
})

describe('the Netlify webhook pass', () => {
  it('resumes a fan-out its deadline cut where it stopped: each event sent once, as if never cut', async () => {
    const receiver = await subscribe()
    // `a-revised` is created with the others, then changed: its event is the later change's, a
    // content.published (it was not published when the fan-out began), however the fan-out was cut.
    const posts = Array.from({ length: BATCH + 4 }, (_, i) => `p${String(i).padStart(2, '0')}`)
    await publish(['a-revised', ...posts], T0 + 100)
    await project.write('content/blog-posts/a-revised.md', validPost('a-revised, revised'))
    await commitAll(project.root, 'revise', T0 + 200)
    await buildSite({ root: project.root, cache: false })

    // No time at all: one batch is queued and saved, nothing is sent.
    const cut = await scheduledRun(0)
    expect(cut?.dispatch).toMatchObject({ kind: 'partial', reason: 'deadline', events: BATCH, left: 5 })
    expect(cut?.sent.delivered).toBe(0)
    // The next run only sends (the queued batch goes out and leaves the queue) ...
    expect((await scheduledRun(20_000, {}, false))?.sent.delivered).toBe(BATCH)
    // ... and the one after resumes the fan-out after it, and sends the rest.
    const resumed = await scheduledRun(20_000)
    expect(resumed?.dispatch).toMatchObject({ kind: 'queued', events: 5 })
    expect(resumed?.sent).toEqual({ delivered: 5, failed: 0, waiting: 0 })

    // Requests received (not events after the receiver's de-duplication): every one once, in cursor order.
    const sent = receiver.deliveries.map((d) => JSON.parse(d.body) as { type: string; data: { slug: string } })
    expect(sent.map((e) => e.data.slug)).toEqual([...posts, 'a-revised'])
    expect(new Set(receiver.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(posts.length + 1)
    expect(sent.every((e) => e.type === 'content.published')).toBe(true)
    expect((await scheduledRun(20_000))?.dispatch?.kind).toBe('nothing-new')
  }, 120_000)

  it('refuses a loopback endpoint on the function runtime without the emulation’s mark, even with no URL', async () => {
    const local = await subscribe()
    const before = receivers.map((r) => r.connections)
    await publish(['after-emulation'], T0 + 300)
    await buildSite({ root: project.root, cache: false })
    // HOST is the loopback default, URL and PUBLIC_URL are unset: nothing here says "development".
    const outcome = await scheduledRun(20_000, { NETLIFY_LOCAL: '' })
    expect(outcome?.dispatch?.kind).toBe('queued')
    expect(outcome?.sent).toMatchObject({ delivered: 0, failed: 2, waiting: 2 })
    expect(receivers.map((r) => r.connections)).toEqual(before)
    const id = (await keys('webhook', 'list')).out.find((line) => line.includes(local.url))!.split('\t')[0]!
    const log = await keys('webhook', 'deliveries', id)
    expect(log.out[0]).toContain('refused: the URL must use https; got http:')
    // What the run did is on record for the operator.
    expect((await keys('webhook', 'list')).err[0]).toMatch(
      /^last run on Netlify: webhooks-scheduled at \S+: fan-out queued; 0 delivered, 2 failed, 2 waiting$/,
    )
  }, 120_000)
})
