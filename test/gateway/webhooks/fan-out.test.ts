/**
 * The fan-out under a lease that can run out: a dispatcher that stalls past
 * its lease (its store answered late, its process froze) while another
 * instance fans out a newer build and its events are delivered, neither
 * queues again what was sent when it wakes, nor takes the cursor back to its
 * older build (which would make the next pass queue the newer build's events
 * a second time). The stall is a store answer the test holds back
 * (held-store.ts); everything else is the production code on the real store,
 * with the service's clock moved past the lease.
 */
import { cp } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { ArtifactStore } from '../../../gateway/artifacts.ts'
import { openFileStore } from '../../../gateway/auth/store/file-store.ts'
import { openCursor } from '../../../gateway/webhooks/cursor.ts'
import { dispatchBuild } from '../../../gateway/webhooks/dispatch.ts'
import { LEASE_MS } from '../../../gateway/webhooks/lease.ts'
import { commitAll } from '../../helpers/git.ts'
import { holdOneCall } from './held-store.ts'
import { startWebhookSite, subscribe, T0, validPost, type WebhookSite } from './setup.ts'
import { startReceiver, type Receiver } from './receiver.ts'

let site: WebhookSite | undefined
let receiver: Receiver | undefined

afterAll(async () => {
  await site?.close()
  await receiver?.close()
})

describe('fan-out', () => {
  it.each([
    ['', false],
    [", and a sender's pass while it stalls sends what it queued", true],
  ])(
    'stops a dispatcher whose lease ran out: nothing sent is queued again, the cursor stays ahead%s',
    async (_, passWhileStalled) => {
      await site?.close()
      await receiver?.close()
      site = await startWebhookSite()
      receiver = await startReceiver()
      await subscribe(site, receiver)
      const { project } = site

      // Build X (two posts), kept aside as the stalled dispatcher's build; then build Y (a third), not yet live.
      for (const slug of ['alpha', 'bravo']) await project.write(`content/blog-posts/${slug}.md`, validPost(slug))
      await commitAll(project.root, 'x', T0 + 100)
      await buildSite({ root: project.root, cache: false })
      const distX = join(project.root, 'dist-x')
      await cp(project.dist, distX, { recursive: true })
      const buildX = await new ArtifactStore(distX, { checkFiles: 'on-read' }).reload()
      await project.write('content/blog-posts/charlie.md', validPost('charlie'))
      await commitAll(project.root, 'y', T0 + 200)
      await buildSite({ root: project.root, cache: false })

      // The stalled one takes the lease, reads the cursor, queues X's first event and stalls before the answer.
      const store = openFileStore(site.env.OAUTH_STORE_DIR!)
      const held = holdOneCall(store, 'create', 'webhooks/queue/')
      const stalledLog: string[] = []
      const stalled = dispatchBuild(buildX, {
        store: held.store,
        now: () => site!.clock.now,
        log: (_level, msg) => stalledLog.push(msg),
        publicUrl: undefined,
      })
      await held.reached
      if (passWhileStalled) {
        // The service's own timer may run a pass now: the lease is taken, so it only sends what waits (alpha).
        await site.webhooks.pass()
        expect(receiver.events.map((e) => e.data.slug)).toEqual(['alpha'])
      }

      // Its lease runs out; another instance fans out Y, and every event is delivered.
      site.advance(3 * LEASE_MS)
      await site.gateway.gateway.reload()
      await site.webhooks.pass()
      expect(receiver.events.map((e) => e.data.slug)).toEqual(['alpha', 'bravo', 'charlie'])
      const ahead = await openCursor(store).read()

      held.release()
      // Awake, it queues nothing more: its next event finds the lease gone.
      expect(await stalled).toMatchObject({ kind: 'partial', reason: 'lease', events: 1 })
      expect(stalledLog).toContain('webhooks: fan-out stopped midway; the next pass resumes it')
      expect(await openCursor(store).read()).toEqual(ahead)
      await site.webhooks.pass()
      await site.webhooks.pass()
      // Requests received, not events after the receiver's de-duplication: each went out once.
      expect(receiver.deliveries.map((d) => JSON.parse(d.body).data.slug)).toEqual(['alpha', 'bravo', 'charlie'])
      expect((await site.keys('webhook', 'list')).out[0]).toContain('\tactive\t0 waiting')
    },
    90_000,
  )

  it('continues from a store written before the cursor records (one webhooks/cursor record)', async () => {
    await site?.close()
    site = await startWebhookSite()
    const legacyReceiver = await startReceiver()
    try {
      await subscribe(site, legacyReceiver)
      const store = openFileStore(site.env.OAUTH_STORE_DIR!)
      // The first build seen starts the cursor; the store is then put back as the code before wrote it.
      await site.webhooks.pass()
      const { from: _from, ...record } = (await openCursor(store).read())!
      for (const key of await store.list('webhooks/cursor/')) await store.delete(key)
      await store.set('webhooks/cursor', record)

      await site.project.write('content/blog-posts/after-upgrade.md', validPost('After upgrade'))
      await site.deploy('after upgrade', T0 + 300)
      await site.webhooks.pass()
      // Not taken for a first build (which only starts the cursor): its change is sent.
      expect(legacyReceiver.events.map((e) => e.data.slug)).toEqual(['after-upgrade'])
      expect((await store.list('webhooks/cursor/')).length).toBe(1)
    } finally {
      await legacyReceiver.close()
    }
  }, 90_000)
})
