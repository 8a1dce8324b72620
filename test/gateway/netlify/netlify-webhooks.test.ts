/**
 * Webhooks on Netlify, under Netlify's own local emulation with emulated
 * Blobs: the subscription made by the keys CLI straight into Blobs; the
 * `deploy-succeeded-background` function, called as Netlify calls it after a
 * deploy, queues the build's changes and sends them; a failed delivery stays
 * queued in Blobs and the scheduled function delivers it once the receiver
 * is back; a deploy preview's event and a second event for the same deploy
 * send nothing. Each call is a fresh function instance: everything that
 * survives between them went through Blobs.
 */
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getStore } from '@netlify/blobs'
import { exportJWK, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { bundledFunctions } from './functions.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { BLOBS_STORE_NAME } from '../../../gateway/auth/store/open-store.ts'
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

const blobKeys = (prefix: string) =>
  Promise.race([
    withBlobs(netlify, async () =>
      (await getStore({ name: BLOBS_STORE_NAME, consistency: 'strong' }).list({ prefix })).blobs.map((b) => b.key),
    ),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`Blobs did not answer\n${netlify.log()}`)), 60_000),
    ),
  ])

/** What Netlify sends a deploy-succeeded function (the parts we read). */
const deployEvent = (context: string) =>
  fetch(`${netlify.url}/.netlify/functions/deploy-succeeded-background`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      payload: { id: 'deploy-1', context, state: 'ready', published_at: new Date().toISOString() },
    }),
  })

const scheduledRun = () => fetch(`${netlify.url}/.netlify/functions/webhooks-scheduled`, { method: 'POST' })

/** Until `check` holds, showing the emulator's log if it never does. */
const eventually = (check: () => Promise<boolean> | boolean, what: string) =>
  until(check, { what, everyMs: 500, timeoutMs: 120_000, show: () => netlify.log() })

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
  netlify = await startEmulator(project.root, {
    WEBHOOK_SECRETS_KEY: SECRETS_KEY,
    OAUTH_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)),
  })
  receiver = await startReceiver()
}, 600_000)

afterAll(async () => {
  await netlify?.stop()
  await receiver?.close()
  await project?.remove()
})

describe('webhooks on Netlify', () => {
  it('queues a deploy’s changes on deploy-succeeded and delivers them, retrying from the scheduled function', async () => {
    // The first deploy sets where changes start.
    expect((await deployEvent('production')).status).toBeLessThan(300)
    await eventually(async () => (await blobKeys('webhooks/cursor')).length === 1, 'the cursor in Blobs')

    const out: string[] = []
    const code = await withBlobs(netlify, () =>
      runKeysCli(['webhook', 'create', '--url', receiver.url, '--events', 'all'], {
        env: { OAUTH_STORE: 'netlify-blobs', WEBHOOK_SECRETS_KEY: SECRETS_KEY },
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
    await deployEvent('production')
    await eventually(() => receiver.deliveries.length > 0, 'a first attempt')
    expect(receiver.events).toHaveLength(0)
    expect(await blobKeys('webhooks/queue/')).toHaveLength(1)

    down = false
    await eventually(async () => {
      await scheduledRun()
      return receiver.events.length === 1
    }, 'the retry from the scheduled function')
    expect(receiver.events[0]).toMatchObject({ type: 'content.published', data: { slug: 'on-netlify' } })
    await eventually(async () => (await blobKeys('webhooks/queue/')).length === 0, 'an empty queue')
  }, 900_000)

  it('sends nothing for a second event of the same deploy, or for a deploy preview', async () => {
    const before = receiver.deliveries.length
    const cursor = () =>
      withBlobs(netlify, () =>
        getStore({ name: BLOBS_STORE_NAME, consistency: 'strong' }).get('webhooks/cursor', { type: 'json' }),
      )
    const cursorBefore = await cursor()
    await deployEvent('production')
    await scheduledRun()
    expect(receiver.deliveries.length).toBe(before)

    // A preview's build is not live: nothing of it goes out, and the cursor stays.
    await project.write('content/blog-posts/preview-only.md', validPost('Preview only'))
    await commitAll(project.root, 'preview only', T0 + 200)
    await buildSite({ root: project.root, cache: false })
    expect((await deployEvent('deploy-preview')).status).toBeLessThan(300)
    expect(await cursor()).toEqual(cursorBefore)
    expect(receiver.deliveries.length).toBe(before)
  }, 900_000)
})
