/**
 * Delivery that loses nothing, against real receivers on 127.0.0.1 and the
 * service's own clock (moved by the test: no real waiting, no timing
 * asserted): a receiver that fails five times then recovers gets every event
 * in cursor order; Retry-After is honoured; an endpoint down past the bound is
 * disabled and said so, keeps its queue, and gets it all when resumed; a
 * logged message can be sent again with the same webhook-id. The backoff has
 * jitter: endpoints that failed together are not all tried again together.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { backoffDelay, FIRST_DELAY_MS, MAX_DELAY_MS, nextAttemptDelay } from '../../../gateway/webhooks/backoff.ts'
import { passUntil, startWebhookSite, subscribe, T0, validPost, type WebhookSite } from './setup.ts'
import { startReceiver, type Receiver } from './receiver.ts'

const HOUR = 3_600_000
let site: WebhookSite | undefined
let receiver: Receiver | undefined

afterEach(async () => {
  await site?.close()
  await receiver?.close()
  site = receiver = undefined
})

/** Three new posts in one build: three events, in cursor order by path. */
async function publishThree(s: WebhookSite): Promise<void> {
  for (const slug of ['alpha', 'bravo', 'charlie'])
    await s.project.write(`content/blog-posts/${slug}.md`, validPost(slug))
  await s.deploy('three posts', T0 + 100)
}

describe('delivery', () => {
  it('gets every event to a receiver that fails five times, in cursor order, once it recovers', async () => {
    site = await startWebhookSite()
    receiver = await startReceiver()
    const id = await subscribe(site, receiver)
    let failures = 0
    receiver.respond = () => (failures++ < 5 ? { status: 500 } : { status: 204 })
    await publishThree(site)
    await site.webhooks.pass()
    // Each failed attempt holds the endpoint back (the circuit is open) until its backoff ends.
    const beforeWait = receiver.deliveries.length
    await site.webhooks.pass()
    expect(receiver.deliveries.length).toBe(beforeWait)
    for (let i = 0; i < 40 && receiver.events.length < 3; i++) {
      site.advance(5 * HOUR)
      await site.webhooks.pass()
    }
    expect(failures).toBeGreaterThanOrEqual(5)
    expect(receiver.events.map((e) => e.data.slug)).toEqual(['alpha', 'bravo', 'charlie'])
    const cursors = receiver.events.map((e) => e.data.cursor)
    expect([...cursors].sort()).toEqual(cursors)
    // The five failures were all the first message's: nothing overtook it.
    const ids = receiver.deliveries.map((d) => String(d.headers['webhook-id']))
    expect(new Set(ids.slice(0, 6)).size).toBe(1)
    expect(ids).toHaveLength(8)
    const log = await site.keys('webhook', 'deliveries', id)
    expect(log.out.filter((l) => l.includes('\tok'))).toHaveLength(3)
    expect(log.out.filter((l) => l.includes('HTTP 500'))).toHaveLength(5)
    expect((await site.keys('webhook', 'list')).out[0]).toContain('\tactive\t0 waiting')
  }, 60_000)

  it('waits as long as Retry-After says', async () => {
    site = await startWebhookSite()
    receiver = await startReceiver()
    await subscribe(site, receiver)
    let first = true
    receiver.respond = () => {
      if (!first) return { status: 204 }
      first = false
      return { status: 503, headers: { 'retry-after': '7200' } }
    }
    await site.project.write('content/blog-posts/later.md', validPost('Later'))
    await site.deploy('later', T0 + 100)
    await passUntil(site, () => receiver!.deliveries.length === 1)
    // Far past any first backoff (seconds), but within the two hours asked for.
    site.advance(HOUR)
    await site.webhooks.pass()
    expect(receiver.deliveries).toHaveLength(1)
    site.advance(HOUR + 60_000)
    await site.webhooks.pass()
    expect(receiver.events.map((e) => e.data.slug)).toEqual(['later'])
  }, 60_000)

  it('disables an endpoint down past the bound, says so, and loses nothing', async () => {
    site = await startWebhookSite()
    receiver = await startReceiver()
    const id = await subscribe(site, receiver)
    receiver.respond = () => ({ status: 502 })
    await publishThree(site)
    await site.webhooks.pass()
    const disabled = () => site!.logs.some((l) => String(l.msg).includes('endpoint disabled'))
    // WEBHOOK_RETRY_HOURS is 72 by default: retried for three days first.
    for (let i = 0; i < 60 && !disabled(); i++) {
      site.advance(4 * HOUR)
      await site.webhooks.pass()
    }
    expect(disabled()).toBe(true)
    const line = site.logs.find((l) => String(l.msg).includes('endpoint disabled'))!
    expect(line).toMatchObject({ level: 'warn', subscription: id, url: receiver.url })
    expect(String(line.reason)).toContain('retried for 72 hours')
    const attempts = receiver.deliveries.length
    expect(attempts).toBeGreaterThan(10)
    const list = await site.keys('webhook', 'list')
    expect(list.out[0]).toMatch(/\tdisabled \S+\t3 waiting\t/)
    const log = await site.keys('webhook', 'deliveries', id)
    expect(log.err.join('\n')).toContain('disabled: failed')
    // Disabled: no more attempts, however long.
    site.advance(24 * HOUR)
    await site.webhooks.pass()
    expect(receiver.deliveries).toHaveLength(attempts)

    receiver.respond = () => ({ status: 200 })
    expect((await site.keys('webhook', 'resume', id)).code).toBe(0)
    await passUntil(site, () => receiver!.events.length === 3)
    expect(receiver.events.map((e) => e.data.slug)).toEqual(['alpha', 'bravo', 'charlie'])
  }, 90_000)

  it('holds a paused subscription’s messages and sends them when resumed', async () => {
    site = await startWebhookSite()
    receiver = await startReceiver()
    const id = await subscribe(site, receiver)
    expect((await site.keys('webhook', 'pause', id)).code).toBe(0)
    await publishThree(site)
    await site.webhooks.pass()
    expect(receiver.deliveries).toHaveLength(0)
    expect((await site.keys('webhook', 'list')).out[0]).toContain('\tpaused\t3 waiting')
    await site.keys('webhook', 'resume', id)
    await passUntil(site, () => receiver!.events.length === 3)
  }, 60_000)

  it('sends a logged message again, with the same webhook-id, on redeliver', async () => {
    site = await startWebhookSite()
    receiver = await startReceiver()
    const id = await subscribe(site, receiver)
    await site.project.write('content/blog-posts/again.md', validPost('Again'))
    await site.deploy('again', T0 + 100)
    await passUntil(site, () => receiver!.deliveries.length === 1)
    const msgId = String(receiver.deliveries[0]!.headers['webhook-id'])
    expect(msgId).toMatch(/^msg_[0-9a-f]{32}$/)
    const redeliver = await site.keys('webhook', 'redeliver', id, msgId)
    expect(redeliver.code).toBe(0)
    await passUntil(site, () => receiver!.deliveries.length === 2)
    expect(receiver.deliveries[1]!.headers['webhook-id']).toBe(msgId)
    expect(receiver.deliveries[1]!.body).toBe(receiver.deliveries[0]!.body)
    // The receiver deduplicates by webhook-id: still one event.
    expect(receiver.events).toHaveLength(1)
    expect((await site.keys('webhook', 'redeliver', id, 'msg_unknown')).code).toBe(1)
  }, 60_000)

  it('removes a subscription with its queue: nothing more is sent to it', async () => {
    site = await startWebhookSite()
    receiver = await startReceiver()
    const id = await subscribe(site, receiver)
    await site.keys('webhook', 'pause', id)
    await publishThree(site)
    await site.webhooks.pass()
    expect((await site.keys('webhook', 'remove', id)).code).toBe(0)
    await site.webhooks.pass()
    expect(receiver.deliveries).toHaveLength(0)
    expect((await site.keys('webhook', 'list')).out).toEqual([])
    expect((await site.keys('webhook', 'pause', id)).code).toBe(1)
  }, 60_000)
})

describe('backoff', () => {
  it('doubles from 5 s to 4 h, each wait drawn between half and all of it (jitter), never before Retry-After', () => {
    for (let failures = 1; failures <= 16; failures++) {
      const full = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - 1))
      // Many endpoints that failed the same number of times: their next tries spread over the window.
      const draws = Array.from({ length: 2000 }, () => backoffDelay(failures))
      const [min, max] = [Math.min(...draws), Math.max(...draws)]
      expect(min, `failure ${failures}`).toBeGreaterThanOrEqual(full / 2)
      expect(max, `failure ${failures}`).toBeLessThanOrEqual(full)
      expect(new Set(draws).size, `failure ${failures}`).toBeGreaterThan(draws.length / 2)
      expect(min, `failure ${failures}`).toBeLessThan(full / 2 + full / 20)
      expect(max, `failure ${failures}`).toBeGreaterThan(full - full / 20)
      // Spread evenly: each half of the window gets roughly half of them.
      const low = draws.filter((d) => d < (3 * full) / 4).length
      expect(low / draws.length, `failure ${failures}`).toBeGreaterThan(0.4)
      expect(low / draws.length, `failure ${failures}`).toBeLessThan(0.6)
    }
    expect(backoffDelay(1, () => 0)).toBe(2_500)
    expect(backoffDelay(1, () => 1)).toBe(5_000)
    expect(backoffDelay(40, () => 1)).toBe(MAX_DELAY_MS)
    // Retry-After wins when longer (up to a day); a shorter one does not shorten the backoff.
    expect(nextAttemptDelay(1, 3 * HOUR)).toBe(3 * HOUR)
    expect(nextAttemptDelay(1, 48 * HOUR)).toBe(24 * HOUR)
    expect(nextAttemptDelay(20, 1_000)).toBeGreaterThanOrEqual(MAX_DELAY_MS / 2)
  })
})
