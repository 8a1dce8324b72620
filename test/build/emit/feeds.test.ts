/**
 * The feeds, read as a feed reader would: RSS 2.0 and Atom 1.0 through an
 * XML parser (well-formed, required elements, namespaces), JSON Feed 1.1
 * against its published JSON Schema, and every entry against the API's own
 * record of the item: same title, link, dates, tags and full HTML body.
 */
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { COLLECTION_NAMES, FIXTURE_MODEL } from '../../helpers/site.ts'

const FEED_NAMES = feedNames(FIXTURE_MODEL)
import { feedNames, FEED_TYPES } from '../../../contract/documents.ts'
import { feedPath, type FeedFormat } from '../../../contract/public-paths.ts'
import type { ContentRecord, FullRecord } from '../../../contract/records.ts'
import { FEED_ENTRIES } from '../../../build/emit/feeds.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfBuiltFixture, createProject, validPost } from '../../helpers/project.ts'

/** What the XML parser makes of an RSS item (attributes as `@name`, repeated elements as arrays). */
interface RssItem {
  title: string
  link: string
  guid: Record<string, string>
  pubDate: string
  'content:encoded': string
  description: string
  category?: unknown[]
  'dc:creator'?: string[]
}

interface AtomEntry {
  id: string
  title: string
  updated: string
  published: string
  link: Record<string, string>[]
  content: Record<string, string>
  category?: Record<string, string>[]
  author?: Record<string, string>[]
}

interface JsonFeedItem {
  tags?: string[]
  authors: { name: string }[]
}

const ctx = useBuiltGateway(copyOfBuiltFixture)
const FORMATS: FeedFormat[] = ['rss', 'atom', 'json']
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name, jpath) =>
    ['item', 'entry', 'category', 'author', 'atom:link', 'dc:creator'].includes(name) ||
    (name === 'link' && String(jpath).startsWith('feed')),
  parseTagValue: false,
  trimValues: false,
})

async function get(path: string): Promise<{ status: number; type: string | null; text: string; etag: string | null }> {
  const response = await fetch(`${ctx.gateway.url}${path}`)
  await assertMatchesContract('GET', path, response)
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    text: await response.text(),
    etag: response.headers.get('etag'),
  }
}

/** What each feed must hold: the newest FEED_ENTRIES items by published_at, as the API has them. */
async function expectedItems(name: string): Promise<FullRecord[]> {
  const collections = name === 'all' ? COLLECTION_NAMES : [name]
  const summaries: ContentRecord[] = []
  for (const c of collections)
    summaries.push(
      ...((await (await fetch(`${ctx.gateway.url}/api/${c}?limit=100`)).json()) as { data: ContentRecord[] }).data,
    )
  summaries.sort(
    (a, b) =>
      Date.parse(b.published_at) - Date.parse(a.published_at) || Date.parse(b.updated_at) - Date.parse(a.updated_at),
  )
  const records: FullRecord[] = []
  for (const s of summaries.slice(0, FEED_ENTRIES)) {
    const collection = COLLECTION_NAMES.find(
      (c) =>
        s.type === { 'blog-posts': 'blog_post', 'case-studies': 'case_study', webinars: 'webinar', events: 'event' }[c],
    )!
    records.push((await (await fetch(`${ctx.gateway.url}/api/${collection}/${s.slug}`)).json()) as FullRecord)
  }
  return records
}

const people = (r: FullRecord) => ((r.authors ?? r.speakers ?? []) as { name: string }[]).map((p) => p.name)
const same = (a: string, b: string) => expect(Date.parse(a), `${a} vs ${b}`).toBe(Date.parse(b))

describe('feeds', () => {
  it.each(FEED_NAMES)('%s: served in three formats with their media types, cacheable', async (name) => {
    for (const format of FORMATS) {
      const { status, type, etag } = await get(feedPath(name, format))
      expect(status).toBe(200)
      expect(type).toBe(FEED_TYPES[format])
      const again = await fetch(`${ctx.gateway.url}${feedPath(name, format)}`, { headers: { 'if-none-match': etag! } })
      expect(again.status).toBe(304)
    }
  })

  it.each(FEED_NAMES)("%s.xml: RSS 2.0 whose items are the API's newest items, in full", async (name) => {
    const { text } = await get(feedPath(name, 'rss'))
    expect(XMLValidator.validate(text)).toBe(true)
    const { rss } = parser.parse(text)
    expect(rss['@version']).toBe('2.0')
    expect(rss['@xmlns:content']).toBe('http://purl.org/rss/1.0/modules/content/')
    const channel = rss.channel
    for (const field of ['title', 'link', 'description', 'lastBuildDate']) expect(channel[field], field).toBeTruthy()
    expect(channel['atom:link'][0]).toMatchObject({
      '@rel': 'self',
      '@href': `https://api.tidewater.example${feedPath(name, 'rss')}`,
      '@type': 'application/rss+xml',
    })
    const records = await expectedItems(name)
    const items = channel.item ?? []
    expect(items.length).toBe(records.length)
    items.forEach((item: RssItem, i: number) => {
      const r = records[i]!
      expect(item.title).toBe(r.title)
      expect(item.link).toBe(r.url)
      expect(item.guid).toMatchObject({ '#text': r.url, '@isPermaLink': 'true' })
      same(item.pubDate, r.published_at)
      expect(item['content:encoded']).toBe(r.body.html)
      expect(item.description).toBe(r.summary)
      expect((item.category ?? []).map(String)).toEqual(r.tags)
      expect(item['dc:creator'] ?? []).toEqual(people(r))
    })
    if (records.length)
      same(channel.lastBuildDate, new Date(Math.max(...records.map((r) => Date.parse(r.updated_at)))).toISOString())
  })

  it.each(FEED_NAMES)(
    '%s.atom: Atom 1.0 with ids, updated, authors, categories and the full HTML content',
    async (name) => {
      const { text } = await get(feedPath(name, 'atom'))
      expect(XMLValidator.validate(text)).toBe(true)
      const { feed } = parser.parse(text)
      expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom')
      // RFC 4287 §4.1.1: a feed has id, title, updated, and an author unless every entry has one.
      for (const field of ['id', 'title', 'updated']) expect(feed[field], field).toBeTruthy()
      expect(feed.author[0].name).toBe('Tidewater Labs')
      expect(feed.link.find((l: Record<string, string>) => l['@rel'] === 'self')['@href']).toBe(
        `https://api.tidewater.example${feedPath(name, 'atom')}`,
      )
      const records = await expectedItems(name)
      expect((feed.entry ?? []).length).toBe(records.length)
      const ids = new Set<string>()
      ;(feed.entry ?? []).forEach((entry: AtomEntry, i: number) => {
        const r = records[i]!
        ids.add(entry.id)
        expect(entry.id).toBe(r.url)
        expect(entry.title).toBe(r.title)
        same(entry.updated, r.updated_at)
        same(entry.published, r.published_at)
        expect(entry.link[0]).toMatchObject({ '@rel': 'alternate', '@href': r.url })
        expect(entry.content).toMatchObject({ '#text': r.body.html, '@type': 'html' })
        expect((entry.category ?? []).map((c: Record<string, string>) => c['@term'])).toEqual(r.tags)
        expect((entry.author ?? []).map((a: Record<string, string>) => a.name)).toEqual(people(r))
      })
      expect(ids.size).toBe(records.length)
    },
  )

  it.each(FEED_NAMES)('%s.json: valid JSON Feed 1.1 (the published schema) matching the API', async (name) => {
    const schema = createRequire(import.meta.url)('jsonfeed-schema/v1.1.js') as object
    const ajv = new Ajv({ allErrors: true, strict: false })
    addFormats.default(ajv)
    const validate = ajv.compile(schema)
    const feed = JSON.parse((await get(feedPath(name, 'json'))).text)
    expect(validate(feed), JSON.stringify(validate.errors)).toBe(true)
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1')
    expect(feed.feed_url).toBe(`https://api.tidewater.example${feedPath(name, 'json')}`)
    const records = await expectedItems(name)
    expect(feed.items.map((i: { id: string }) => i.id)).toEqual(records.map((r) => r.url))
    feed.items.forEach((item: JsonFeedItem, i: number) => {
      const r = records[i]!
      expect(item).toMatchObject({
        url: r.url,
        title: r.title,
        summary: r.summary,
        content_html: r.body.html,
        date_published: r.published_at,
        date_modified: r.updated_at,
      })
      expect(item.tags ?? []).toEqual(r.tags)
      expect(item.authors.map((a: { name: string }) => a.name)).toEqual(
        people(r).length ? people(r) : ['Tidewater Labs'],
      )
    })
  })
})

describe('feeds without api_url', () => {
  const bare = useBuiltGateway(() => createProject({ 'content/blog-posts/a-post.md': validPost('A post & <friends>') }))

  it('link to themselves relatively, and the JSON Feed leaves out feed_url (the format wants a URL)', async () => {
    const rss = await (await fetch(`${bare.gateway.url}/feeds/blog-posts.xml`)).text()
    expect(parser.parse(rss).rss.channel['atom:link'][0]['@href']).toBe('/feeds/blog-posts.xml')
    expect(parser.parse(rss).rss.channel.item[0].title).toBe('A post & <friends>')
    const json = (await (await fetch(`${bare.gateway.url}/feeds/blog-posts.json`)).json()) as Record<string, unknown>
    expect(json).not.toHaveProperty('feed_url')
    const empty = parser.parse(await (await fetch(`${bare.gateway.url}/feeds/events.atom`)).text()).feed
    expect(empty.entry).toBeUndefined()
    expect(empty.updated).toBe('2026-01-05T00:00:00Z')
  })
})
