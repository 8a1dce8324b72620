/**
 * Webhooks of a self-hosted gateway, end to end: a real receiver on
 * 127.0.0.1 verifies every delivery with the Standard Webhooks library.
 * Publish, update and remove each send one signed event with the change
 * feed's cursor and no body; a redeploy of the same build, or a build with no
 * change, sends nothing; a secret rotation signs with both secrets meanwhile;
 * a receiver that never answers fails after its subscription's timeout.
 */
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebhookVerificationError } from 'standardwebhooks'
import { passUntil, startWebhookSite, T0, validPost, type WebhookSite } from './setup.ts'
import { startReceiver, verify, type Receiver } from './receiver.ts'

let site: WebhookSite
let receiver: Receiver
let secret: string
let id: string
/** `webhook list` before any subscription. */
let none: { code: number; out: string[]; err: string[] }

beforeAll(async () => {
  site = await startWebhookSite()
  receiver = await startReceiver()
  none = await site.keys('webhook', 'list')
  // The build already served before any subscription is not news: the first pass starts the cursor there.
  await site.webhooks.pass()
  const created = await site.keys(
    'webhook',
    'create',
    '--url',
    receiver.url,
    '--events',
    'all',
    '--description',
    'partner',
  )
  expect(created.code).toBe(0)
  secret = created.out[0]!
  id = /created (wh_[0-9a-f]{16})/.exec(created.err.join('\n'))![1]!
  receiver.secrets.push(secret)
}, 60_000)

afterAll(async () => {
  await site?.close()
  await receiver?.close()
})

describe('webhooks from the change feed', () => {
  it('lists none as none: a line that says so, no rows', () => {
    expect(none).toMatchObject({ code: 0, out: [] })
    expect(none.err.at(-1)).toMatch(/^no webhook subscriptions in .+; `npm run keys -- webhook create --help` says how/)
  })

  it('shows the secret once, as a whsec_ secret, and never stores it in the clear', async () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const list = await site.keys('webhook', 'list')
    expect(list.out.join('\n')).toContain(id)
    expect(list.out.join('\n')).not.toContain(secret.slice(6))
    const { readFile, readdir } = await import('node:fs/promises')
    const dir = join(site.project.root, 'gateway/.data/oauth/webhooks/subscriptions')
    const [file] = await readdir(dir)
    const stored = await readFile(join(dir, file!), 'utf8')
    expect(stored).not.toContain(secret.slice(6))
    expect(stored).not.toContain(secret.slice(6, 20))
  })

  it('sends content.published for a new item, signed, with its cursor and no body', async () => {
    await site.project.write('content/blog-posts/launch-day.md', validPost('Launch day'))
    await site.deploy('publish launch day', T0 + 100)
    await passUntil(site, () => receiver.events.length >= 1)
    expect(receiver.events).toHaveLength(1)
    const [event] = receiver.events
    expect(event).toMatchObject({
      type: 'content.published',
      data: {
        collection: 'blog-posts',
        slug: 'launch-day',
        url: 'https://www.fixture.example/blog/launch-day',
        api_url: `${site.gateway.url}/api/blog-posts/launch-day`,
      },
    })
    const record = await (await fetch(`${site.gateway.url}/api/blog-posts/launch-day`)).json()
    expect(event!.data.id).toBe(record.id)
    expect(event!.data.updated_at).toBe(record.updated_at)
    expect(Object.keys(event!.data).sort()).toEqual(
      ['api_url', 'changed_at', 'collection', 'cursor', 'id', 'locale', 'slug', 'updated_at', 'url'].sort(),
    )
    // A single-language site's one feed is its language's.
    expect(event!.data.locale).toBe('en')
    expect(receiver.deliveries[0]!.body).not.toContain('First paragraph')
    // The cursor is the change feed's: reading after it finds nothing newer.
    const after = await (await fetch(`${site.gateway.url}/api/changes?since=${event!.data.cursor}`)).json()
    expect(after.data).toEqual([])
    // A wrong secret does not verify it.
    expect(() => verify(receiver.deliveries[0]!, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toThrow(
      WebhookVerificationError,
    )
  })

  it('sends content.updated when a published item changes', async () => {
    await site.project.write('content/blog-posts/launch-day.md', validPost('Launch day, revised'))
    await site.deploy('revise launch day', T0 + 200)
    await passUntil(site, () => receiver.events.length >= 2)
    expect(receiver.events[1]).toMatchObject({ type: 'content.updated', data: { slug: 'launch-day' } })
    expect(receiver.events[1]!.data.cursor > receiver.events[0]!.data.cursor).toBe(true)
  })

  it('sends content.removed for a tombstone, with the page it had and no API link', async () => {
    await rm(join(site.project.root, 'content/blog-posts/launch-day.md'))
    await site.deploy('remove launch day', T0 + 300)
    await passUntil(site, () => receiver.events.length >= 3)
    expect(receiver.events[2]).toMatchObject({
      type: 'content.removed',
      data: { slug: 'launch-day', url: 'https://www.fixture.example/blog/launch-day', api_url: null },
    })
    const feed = await (await fetch(`${site.gateway.url}/api/changes?since=${receiver.events[1]!.data.cursor}`)).json()
    expect(feed.data).toMatchObject([{ change: 'deleted', slug: 'launch-day' }])
  })

  it('sends nothing for a redeploy of the same build, or a build without changes', async () => {
    const before = receiver.deliveries.length
    await site.gateway.store.reload()
    await site.webhooks.pass()
    await site.deploy('nothing changed', T0 + 400)
    await site.webhooks.pass()
    await site.webhooks.pass()
    expect(receiver.deliveries.length).toBe(before)
    const log = await site.keys('webhook', 'deliveries', id)
    expect(log.out).toHaveLength(3)
    expect(log.out.every((line) => line.includes('\tok'))).toBe(true)
  })

  it('signs with the old and the new secret during a rotation, then with the new one only', async () => {
    const rotated = await site.keys('webhook', 'rotate', id, '--overlap', '1h')
    expect(rotated.code).toBe(0)
    const fresh = rotated.out[0]!
    expect(fresh).not.toBe(secret)
    await writeFile(join(site.project.root, 'content/blog-posts/second.md'), validPost('Second'))
    await site.deploy('second post', T0 + 500)
    await passUntil(site, () => receiver.events.length >= 4)
    const during = receiver.deliveries.at(-1)!
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(verify(during, secret).data.slug).toBe('second')
    expect(verify(during, fresh).data.slug).toBe('second')

    site.advance(2 * 3_600_000)
    await writeFile(join(site.project.root, 'content/blog-posts/third.md'), validPost('Third'))
    await site.deploy('third post', T0 + 600)
    receiver.secrets.push(fresh)
    await passUntil(site, () => receiver.events.length >= 5)
    const after = receiver.deliveries.at(-1)!
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(verify(after, fresh).data.slug).toBe('third')
    expect(() => verify(after, secret)).toThrow(WebhookVerificationError)
  })

  it('delivers only the event types a subscription asked for', async () => {
    const other = await startReceiver()
    try {
      const created = await site.keys('webhook', 'create', '--url', other.url, '--events', 'content.removed')
      other.secrets.push(created.out[0]!)
      await writeFile(join(site.project.root, 'content/blog-posts/fourth.md'), validPost('Fourth'))
      await site.deploy('fourth post', T0 + 700)
      await rm(join(site.project.root, 'content/blog-posts/third.md'))
      await site.deploy('remove third', T0 + 800)
      await passUntil(site, () => other.events.length >= 1)
      expect(other.events.map((e) => [e.type, e.data.slug])).toEqual([['content.removed', 'third']])
    } finally {
      await other.close()
    }
  })

  it("counts a receiver that never answers as a failure after its subscription's timeout, and tries it again later", async () => {
    const silent = await startReceiver()
    try {
      silent.respond = () => null
      const created = await site.keys('webhook', 'create', '--url', silent.url, '--events', 'all', '--timeout', '1')
      expect(created.code).toBe(0)
      silent.secrets.push(created.out[0]!)
      const silentId = /created (wh_[0-9a-f]{16})/.exec(created.err.join('\n'))![1]!
      await writeFile(join(site.project.root, 'content/blog-posts/fifth.md'), validPost('Fifth'))
      await site.deploy('fifth post', T0 + 900)
      // (A pass waits for the one the deploy started.)
      await passUntil(site, () => silent.deliveries.length >= 1)
      // The request arrived and was never answered: one attempt, logged as a failure once the second was up.
      expect(silent.deliveries).toHaveLength(1)
      const log = await site.keys('webhook', 'deliveries', silentId)
      expect(log.out).toHaveLength(1)
      expect(log.out[0]!.split('\t').slice(2, 4)).toEqual(['content.published', '-'])
      expect(log.out[0]).toMatch(/\tno answer within 1000 ms$/)
      const row = (await site.keys('webhook', 'list')).out.find((line) => line.startsWith(silentId))
      expect(row).toContain('\tfailing (1 in a row, next try ')
      // A silent endpoint holds no other: the first receiver has the post.
      expect(receiver.events.at(-1)?.data.slug).toBe('fifth')
      // Answering again, it gets the same message once its backoff has passed.
      silent.respond = () => ({ status: 204 })
      site.advance(60_000)
      await passUntil(site, () => silent.events.length === 1)
      expect(silent.deliveries[1]!.headers['webhook-id']).toBe(silent.deliveries[0]!.headers['webhook-id'])
      expect(silent.events[0]).toMatchObject({ type: 'content.published', data: { slug: 'fifth' } })
      expect((await site.keys('webhook', 'remove', silentId)).code).toBe(0)
    } finally {
      await silent.close()
    }
  })
})
