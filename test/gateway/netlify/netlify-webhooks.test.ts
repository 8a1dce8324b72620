/**
 * Webhooks on Netlify, under Netlify's own local emulation with emulated
 * Blobs: the subscription made by the keys CLI straight into Blobs; the
 * `deploy-succeeded-background` function, called as Netlify calls it after a
 * deploy, queues the build's changes and sends them; a failed delivery stays
 * queued in Blobs and the scheduled function delivers it once the receiver
 * is back; a deploy preview's event and a second event for the same deploy
 * send nothing. Each call is a fresh function instance: everything that
 * survives between them went through Blobs. A call is done when the run
 * record it writes at its end says so, not when its answer comes (Netlify
 * answers a background function at once).
 */
import { copyFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { getStore } from '@netlify/blobs'
import { exportJWK, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { bundledFunctions } from './functions.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { BLOBS_STORE_NAME } from '../../../gateway/auth/store/open-store.ts'
import type { RunRecord } from '../../../gateway/webhooks/last-run.ts'
import { generateSecretsKey } from '../../../gateway/webhooks/secrets.ts'
import { commitAll, initAndCommit } from '../../helpers/git.ts'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../../helpers/project.ts'
import { until } from '../../helpers/until.ts'
import { startReceiver, type Receiver } from '../webhooks/receiver.ts'
import { startEmulator, withBlobs, type Emulator } from './emulator.ts'

const T0 = 1_777_593_600
const SECRETS_KEY = generateSecretsKey()

let project: TempProject
let netlify: Emulator
let receiver: Receiver

/** Read the emulated Blobs; within five minutes (a loaded machine), or the emulator's log in the error. */
const blobs = <T>(read: (store: ReturnType<typeof getStore>) => Promise<T>) =>
  Promise.race([
    withBlobs(netlify, () => read(getStore({ name: BLOBS_STORE_NAME, consistency: 'strong' }))),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`Blobs did not answer\n${netlify.log()}`)), 300_000),
    ),
  ])

const blobKeys = (prefix: string) => blobs(async (store) => (await store.list({ prefix })).blobs.map((b) => b.key))

/** The record of the last function run (gateway/webhooks/last-run.ts), as the state store keeps it. */
const lastRun = () =>
  blobs(async (store) => ((await store.get('webhooks/last-run', { type: 'json' })) as { v: RunRecord } | null)?.v)

/** Until `check` holds, showing the emulator's log if it never does. */
const eventually = (check: () => Promise<boolean> | boolean, what: string) =>
  until(check, { what, everyMs: 500, timeoutMs: 900_000, show: () => netlify.log() })

/**
 * POST to a function as Netlify calls it; its status. Over node:http, which sets no time limit of
 * its own (fetch gives up on headers after five minutes): the emulation builds a function when it is
 * first called, minutes on a loaded machine.
 */
function post(path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${netlify.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' } })
    req.on('response', (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * Call a function as Netlify does and wait for its run's end: the run record it writes once it has
 * finished, for this call. The answer does not say so for a background function (Netlify answers
 * 202 at once; the emulation, once the function has returned), so the record is waited for after it.
 */
async function runOf(path: string, body: string, which: Pick<RunRecord, 'trigger' | 'deploy_id'>) {
  const since = Date.now()
  expect(await post(path, body), netlify.log()).toBeLessThan(300)
  let run: RunRecord | undefined
  await eventually(
    async () => {
      run = await lastRun()
      return (
        run !== undefined &&
        run.trigger === which.trigger &&
        run.deploy_id === which.deploy_id &&
        Date.parse(run.finished_at) >= since
      )
    },
    `the end of ${which.trigger} ${which.deploy_id ?? ''}`,
  )
  return run!
}

/** What Netlify sends a deploy-succeeded function (the parts we read), and its run. */
const deployEvent = (context: string, id: string) =>
  runOf(
    '/.netlify/functions/deploy-succeeded-background',
    JSON.stringify({ payload: { id, context, state: 'ready', published_at: new Date().toISOString() } }),
    { trigger: 'deploy-succeeded', deploy_id: id },
  )

const scheduledRun = () =>
  runOf('/.netlify/functions/webhooks-scheduled', '', { trigger: 'scheduled', deploy_id: null })

beforeAll(async () => {
  project = await createProject({
    'content/blog-posts/first-post.md': validPost('First post'),
    '.gitignore': 'dist/\nnetlify-functions/\n.netlify/\n.cache/\n',
  })
  await initAndCommit(project.root, T0)
  await buildSite({ root: project.root, cache: false })
  await bundledFunctions(project.root)
  await copyFile(join(REPO_ROOT, 'netlify.toml'), join(project.root, 'netlify.toml'))
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  // Each function is built once, as a deploy's are: it reads each new build from the project
  // (DIST_DIR), as the deployed one reads the build deployed with it. Rebuilt on every change of
  // dist/, each took minutes on a loaded machine, and a call made meanwhile ran beside the rebuild.
  netlify = await startEmulator(
    project.root,
    { WEBHOOK_SECRETS_KEY: SECRETS_KEY, OAUTH_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)) },
    { reloadFunctions: false },
  )
  receiver = await startReceiver()
  // Each function is built when first called (minutes on a loaded machine): both are called here, so
  // the tests wait on what they test. A deploy preview's event does nothing; the first scheduled run
  // sets where changes start (the first build a sender sees is not news).
  expect(await deployEvent('deploy-preview', 'warm-up')).toMatchObject({ dispatch: null })
  expect(await scheduledRun()).toMatchObject({ dispatch: 'started' })
}, 1_800_000)

afterAll(async () => {
  await netlify?.stop()
  await receiver?.close()
  await project?.remove()
})

describe('webhooks on Netlify', () => {
  it('queues a deploy’s changes on deploy-succeeded and delivers them, retrying from the scheduled function', async () => {
    // A deploy of the build the first run saw: nothing new.
    expect(await deployEvent('production', 'deploy-1')).toMatchObject({ ignored: null, dispatch: 'nothing-new' })
    expect(await blobKeys('webhooks/cursor/')).toHaveLength(1)

    const out: string[] = []
    const code = await withBlobs(netlify, () =>
      runKeysCli(['webhook', 'create', '--url', receiver.url, '--events', 'all'], {
        // As the emulation marks what runs in it: a loopback receiver is allowed only there.
        env: { STATE_STORE: 'netlify-blobs', WEBHOOK_SECRETS_KEY: SECRETS_KEY, NETLIFY_LOCAL: 'true' },
        cwd: project.root,
        out: (l) => out.push(l),
        err: () => {},
      }),
    )
    expect(code).toBe(0)
    receiver.secrets.push(out[0]!)

    // A new deploy: the receiver is down at first, so the message stays queued in Blobs.
    let down = true
    receiver.respond = () => (down ? { status: 503 } : { status: 204 })
    await project.write('content/blog-posts/on-netlify.md', validPost('On Netlify'))
    await commitAll(project.root, 'on netlify', T0 + 100)
    await buildSite({ root: project.root, cache: false })
    expect(await deployEvent('production', 'deploy-2')).toMatchObject({ dispatch: 'queued', failed: 1, waiting: 1 })
    expect(receiver.deliveries).toHaveLength(1)
    expect(receiver.events).toHaveLength(0)
    expect(await blobKeys('webhooks/queue/')).toHaveLength(1)

    down = false
    await eventually(async () => {
      await scheduledRun()
      return receiver.events.length === 1
    }, 'the retry from the scheduled function')
    expect(receiver.events[0]).toMatchObject({ type: 'content.published', data: { slug: 'on-netlify' } })
    expect(await blobKeys('webhooks/queue/')).toHaveLength(0)
  }, 1_800_000)

  it('sends nothing for a second event of the same deploy, or for a deploy preview', async () => {
    const before = receiver.deliveries.length
    const cursorBefore = await blobKeys('webhooks/cursor/')
    // Each waited for until its run has ended, so "nothing" is what it did, not what it had not done yet.
    expect(await deployEvent('production', 'deploy-2')).toMatchObject({ ignored: null, dispatch: 'nothing-new' })
    expect(await scheduledRun()).toMatchObject({ dispatch: 'nothing-new', delivered: 0 })
    expect(receiver.deliveries.length).toBe(before)

    // A preview's build is not live: nothing of it goes out, and the cursor stays.
    await project.write('content/blog-posts/preview-only.md', validPost('Preview only'))
    await commitAll(project.root, 'preview only', T0 + 200)
    await buildSite({ root: project.root, cache: false })
    const preview = await deployEvent('deploy-preview', 'deploy-3')
    expect(preview.ignored).toBe('the deploy-preview context is not live')
    expect(preview.dispatch).toBeNull()
    expect(await blobKeys('webhooks/cursor/')).toEqual(cursorBefore)
    expect(receiver.deliveries.length).toBe(before)
  }, 1_800_000)
})
