/**
 * /sitemap.xml under an XML parser: on the multilingual fixture (English,
 * German with fallback, French) with a draft, a scheduled and an expired
 * post added, it holds every published item's page of every locale once,
 * `lastmod` from `updated_at`, hreflang alternates for translations plus
 * x-default, and none of the unpublished. A generated large site is split
 * into an index of parts, each within the limits.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sitemapFiles, type SitemapUrl } from '../../../build/emit/sitemap.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { copyOfLocaleFixture, validPost } from '../../helpers/project.ts'

type Alternate = { '@hreflang': string; '@href': string }
type Url = { loc: string; lastmod: string; 'xhtml:link'?: Alternate[] }
type Translation = { locale: string; url: string }
type Item = { url: string; updated_at: string; locale: string; translations: Translation[] }

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => ['url', 'sitemap', 'xhtml:link'].includes(name),
})

function parse(xml: string): Record<string, { url?: Url[]; sitemap?: { loc: string }[] } & Record<string, string>> {
  expect(XMLValidator.validate(xml)).toBe(true)
  return parser.parse(xml)
}

let gw: BuiltGateway

beforeAll(async () => {
  const project = await copyOfLocaleFixture()
  await project.write('content/blog-posts/a-draft.md', validPost('A draft', 'draft: true\n'))
  await project.write(
    'content/blog-posts/a-future-post.md',
    validPost('A future post').replace('2026-01-05', '2099-01-05'),
  )
  await project.write(
    'content/blog-posts/an-expired-post.md',
    validPost('An expired post', 'expires_at: 2026-01-06T00:00:00Z\n'),
  )
  gw = await startBuiltGateway({ project })
}, 120_000)
afterAll(async () => {
  await gw?.close()
  await gw?.project.remove()
})

describe('/sitemap.xml', () => {
  it('holds every published page of every locale once, with lastmod and hreflang alternates, and nothing unpublished', async () => {
    const response = await fetch(`${gw.url}/sitemap.xml`)
    await assertMatchesContract('GET', '/sitemap.xml', response.clone())
    expect(response.status).toBe(200)
    const { urlset } = parse(await response.text())
    expect(urlset!['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9')
    const urls = urlset!.url!
    // Each locale's own records (a fallback record is the default's page, listed once).
    const items: Item[] = []
    for (const locale of ['en', 'de', 'fr'])
      for (const c of COLLECTION_NAMES) {
        const { data } = (await (await fetch(`${gw.url}/api/${c}?limit=100&locale=${locale}`)).json()) as {
          data: Item[]
        }
        items.push(...data.filter((r) => r.locale === locale))
      }
    expect(urls.map((u) => u.loc).sort()).toEqual(items.map((r) => r.url).sort())
    expect(new Set(urls.map((u) => u.loc)).size).toBe(urls.length)
    for (const slug of ['a-draft', 'a-future-post', 'an-expired-post'])
      expect(
        urls.some((u) => u.loc.endsWith(`/${slug}`)),
        slug,
      ).toBe(false)
    const translated = items.filter((r) => r.translations.length)
    expect(translated.length).toBeGreaterThan(0)
    for (const item of items) {
      const url = urls.find((u) => u.loc === item.url)!
      expect(url.lastmod).toBe(item.updated_at)
      if (!item.translations.length) continue
      const versions = [{ locale: item.locale, url: item.url }, ...item.translations]
      const links = url['xhtml:link']!.map((l) => [l['@hreflang'], l['@href']])
      for (const v of versions) expect(links, item.url).toContainEqual([v.locale, v.url])
      const english = versions.find((v) => v.locale === 'en')
      if (english) expect(links).toContainEqual(['x-default', english.url])
    }
  })
})

describe('a site past the limits', () => {
  const site = (n: number): SitemapUrl[] =>
    Array.from({ length: n }, (_, i) => ({
      loc: `https://www.example.com/blog/post-${i}`,
      lastmod: `2026-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00Z`,
      alternates: [],
    }))

  it('becomes a sitemap index of parts, each within the URL and byte limits, holding every URL once', () => {
    const urls = site(2500)
    const limits = { urls: 1000, bytes: 120_000 }
    const files = sitemapFiles(urls, 'https://api.example.com', limits)
    const { sitemapindex } = parse(String(files['sitemap.xml']))
    const parts = sitemapindex!.sitemap!.map((s) => s.loc)
    expect(parts.length).toBeGreaterThan(2)
    const seen: string[] = []
    for (const loc of parts) {
      expect(loc).toMatch(/^https:\/\/api\.example\.com\/sitemaps\/\d+\.xml$/)
      const text = String(files[loc.replace('https://api.example.com/', '')])
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limits.bytes)
      const part = parse(text).urlset!.url!
      expect(part.length).toBeLessThanOrEqual(limits.urls)
      seen.push(...part.map((u) => u.loc))
    }
    expect(seen).toEqual(urls.map((u) => u.loc))
    // Within the limits it stays one file.
    expect(Object.keys(sitemapFiles(site(10), '', limits))).toEqual(['sitemap.xml'])
  })
})
