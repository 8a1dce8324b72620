/**
 * WebSub for the feeds: with `websub_hub` in content/site.yaml every feed
 * names the hub, and after a build goes live the hub gets a publish ping for
 * each feed that changed, and none for a build that changed no feed; on a
 * multilingual site the feeds of each locale (`/feeds/<locale>/`) too.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SITE_YAML } from '../../helpers/project.ts'
import { startWebhookSite, T0, validPost, type WebhookSite } from './setup.ts'

let hub: Server
let hubUrl: string
const pings: URLSearchParams[] = []
let site: WebhookSite

beforeAll(async () => {
  hub = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      pings.push(new URLSearchParams(body))
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', () => resolve()))
  hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/hub`
  site = await startWebhookSite(
    {},
    { 'content/site.yaml': `${SITE_YAML}api_url: https://api.fixture.example\nwebsub_hub: ${hubUrl}\n` },
  )
}, 60_000)

afterAll(async () => {
  await site?.close()
  await new Promise((resolve) => hub?.close(resolve))
})

describe('WebSub', () => {
  it('names the hub in every feed format', async () => {
    const rss = await (await fetch(`${site.gateway.url}/feeds/all.xml`)).text()
    expect(rss).toContain(`<atom:link href="${hubUrl}" rel="hub"/>`)
    const atom = await (await fetch(`${site.gateway.url}/feeds/blog-posts.atom`)).text()
    expect(atom).toContain(`<link rel="hub" href="${hubUrl}"/>`)
    const json = await (await fetch(`${site.gateway.url}/feeds/events.json`)).json()
    expect(json.hubs).toEqual([{ type: 'WebSub', url: hubUrl }])
  })

  it('pings the hub for the feeds a live build changed, and only for them', async () => {
    await site.webhooks.pass()
    // The first build seen: every feed is announced once (a ping only asks the hub to fetch; websub.ts says why).
    expect(pings).toHaveLength(15)
    expect(pings.every((p) => p.get('hub.mode') === 'publish')).toBe(true)
    expect(pings.map((p) => p.get('hub.url'))).toContain('https://api.fixture.example/feeds/all.atom')
    pings.length = 0

    await site.project.write('content/blog-posts/hub-news.md', validPost('Hub news'))
    await site.deploy('hub news', T0 + 100)
    await site.webhooks.pass()
    expect(pings.map((p) => p.get('hub.url')).sort()).toEqual(
      ['all.atom', 'all.json', 'all.xml', 'blog-posts.atom', 'blog-posts.json', 'blog-posts.xml'].map(
        (f) => `https://api.fixture.example/feeds/${f}`,
      ),
    )
    pings.length = 0
    await site.deploy('nothing for the feeds', T0 + 200)
    await site.webhooks.pass()
    expect(pings).toHaveLength(0)
  })
})

describe('WebSub on a multilingual site', () => {
  let multilingual: WebhookSite
  beforeAll(async () => {
    multilingual = await startWebhookSite(
      {},
      {
        'content/site.yaml': `${SITE_YAML}api_url: https://api.fixture.example\nwebsub_hub: ${hubUrl}\nlanguage: en\nlocales: [en, de, fr]\nlocale_fallback: [de]\n`,
      },
    )
  }, 60_000)
  afterAll(() => multilingual?.close())

  it("announces every locale's feeds, and pings for a locale's feeds when its translation comes", async () => {
    pings.length = 0
    await multilingual.webhooks.pass()
    const urls = pings.map((p) => p.get('hub.url'))
    expect(urls).toHaveLength(45)
    expect(urls).toContain('https://api.fixture.example/feeds/de/all.atom')
    expect(urls).toContain('https://api.fixture.example/feeds/fr/blog-posts.json')
    pings.length = 0
    await multilingual.project.write('content/blog-posts/first-post.de.md', validPost('Erster Beitrag'))
    await multilingual.deploy('translate the first post', T0 + 100)
    await multilingual.webhooks.pass()
    expect(pings.map((p) => p.get('hub.url')).sort()).toEqual(
      ['all.atom', 'all.json', 'all.xml', 'blog-posts.atom', 'blog-posts.json', 'blog-posts.xml'].map(
        (f) => `https://api.fixture.example/feeds/de/${f}`,
      ),
    )
  })
})
