/**
 * An endpoint slow to answer delays no other. The slow receiver is subscribed
 * first (a sender that went through subscriptions one after another served it
 * first, its whole backlog before the next subscription's turn) and holds
 * every request until the other receiver has all its events: served one
 * after the other, that wait could only end with the slow endpoint's
 * timeout, a failure. Served side by side and in turns, the other receiver
 * gets its events within the same pass, and the slow one then answers each of
 * its requests in time. No timing is asserted: what shows is which requests
 * failed.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { MESSAGES_PER_TURN } from '../../../gateway/webhooks/sender.ts'
import { startWebhookSite, subscribe, T0, validPost, type WebhookSite } from './setup.ts'
import { startReceiver, type Receiver } from './receiver.ts'

let site: WebhookSite | undefined
const receivers: Receiver[] = []

afterAll(async () => {
  await site?.close()
  await Promise.all(receivers.map((r) => r.close()))
})

describe('fair delivery', () => {
  it('gets a later subscription its events within the pass while an earlier one is slow to answer', async () => {
    site = await startWebhookSite()
    const slow = await startReceiver()
    const fast = await startReceiver()
    receivers.push(slow, fast)
    // The longest timeout there is: the slow endpoint is healthy, only slow.
    const slowId = await subscribe(site, slow, '--timeout', '15')
    const fastId = await subscribe(site, fast)
    // More than one turn's worth each, so each endpoint also waits its turn again behind the other.
    const count = MESSAGES_PER_TURN + 2
    let fastHasAll!: () => void
    const waitForFast = new Promise<void>((resolve) => (fastHasAll = resolve))
    slow.respond = async () => {
      await waitForFast
      return { status: 204 }
    }
    fast.respond = () => {
      if (fast.deliveries.length === count) fastHasAll()
      return { status: 204 }
    }
    const slugs = Array.from({ length: count }, (_, i) => `post-${String(i).padStart(2, '0')}`)
    for (const slug of slugs) await site.project.write(`content/blog-posts/${slug}.md`, validPost(slug))
    // The swap starts a pass; this one runs after it.
    await site.deploy('a dozen posts', T0 + 100)
    await site.webhooks.pass()

    expect(fast.events.map((e) => e.data.slug)).toEqual(slugs)
    expect(slow.events.map((e) => e.data.slug)).toEqual(slugs)
    // Each request of the slow endpoint was answered in time: one attempt each, none failed.
    expect(slow.deliveries).toHaveLength(count)
    const log = await site.keys('webhook', 'deliveries', slowId, '--limit', '100')
    expect(log.out).toHaveLength(count)
    expect(log.out.filter((line) => !line.endsWith('\tok'))).toEqual([])
    const list = (await site.keys('webhook', 'list')).out
    expect(list.find((line) => line.startsWith(slowId))).toContain('\tactive\t0 waiting')
    expect(list.find((line) => line.startsWith(fastId))).toContain('\tactive\t0 waiting')
  }, 90_000)
})
