/**
 * /sitemap.xml (sitemaps.org protocol 0.9): the marketing site's canonical
 * page (`url`) of every published item of every locale, `lastmod` from its
 * `updated_at`, and on a multilingual site an `xhtml:link rel="alternate"`
 * per version of the item (itself included) and `x-default` (the default
 * locale's), as Google reads hreflang. Only what the build publishes is in
 * it: never a draft, a scheduled or an expired item.
 *
 * Past the protocol's limits (50,000 URLs or 50 MB a file) it is a sitemap
 * index of parts, `/sitemaps/<n>.xml`, each within them; the limits are a
 * parameter, so a test need not build 50,000 items.
 */
import { SITEMAP_PATH, SITEMAPS_PREFIX } from '../../contract/public-paths.ts'
import type { ContentRecord } from '../../contract/records.ts'
import type { BuiltContent, EmittedFiles, Emitter } from './types.ts'
import { element } from './xml.ts'

export interface SitemapUrl {
  loc: string
  lastmod: string
  /** Every version of the item, this one included, then `x-default`; none on a single-language site. */
  alternates: { hreflang: string; href: string }[]
}

export interface SitemapLimits {
  urls: number
  bytes: number
}

/** The protocol's: at most 50,000 URLs and 50 MB (uncompressed) a file. */
export const SITEMAP_LIMITS: SitemapLimits = { urls: 50_000, bytes: 50 * 1024 * 1024 }

const NAMESPACES = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"'
const HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NAMESPACES}>\n`
const TAIL = '</urlset>\n'

export const emitSitemap = {
  name: 'sitemap',
  input: 'content',
  emit: (content) => sitemapFiles(sitemapUrls(content), content.site.apiUrl ?? ''),
} satisfies Emitter

/** Every published item's page, each locale's own records (a record standing in for a missing translation is the default's page). */
export function sitemapUrls(content: BuiltContent): SitemapUrl[] {
  const { language } = content.site
  const urls: SitemapUrl[] = []
  const add = (record: ContentRecord, locale: string) =>
    urls.push(urlOf(record, locale, language, content.site.locales))
  for (const collection of content.site.model.names) {
    for (const record of content.summaries[collection] ?? []) add(record, language)
    for (const [locale, view] of Object.entries(content.locales ?? {}))
      for (const record of view.summaries[collection] ?? []) if (record.locale === locale) add(record, locale)
  }
  return urls
}

function urlOf(record: ContentRecord, locale: string, language: string, locales: readonly string[]): SitemapUrl {
  const versions = new Map([
    [locale, String(record.url)],
    ...(record.translations ?? []).map((t) => [t.locale, t.url] as const),
  ])
  const alternates =
    versions.size > 1 || record.translations !== undefined
      ? [
          ...locales.flatMap((l) => (versions.has(l) ? [{ hreflang: l, href: versions.get(l)! }] : [])),
          ...(versions.has(language) ? [{ hreflang: 'x-default', href: versions.get(language)! }] : []),
        ]
      : []
  return { loc: String(record.url), lastmod: record.updated_at, alternates }
}

function urlEntry(url: SitemapUrl): string {
  const links = url.alternates.map(
    (a) => `    ${element('xhtml:link', undefined, { rel: 'alternate', hreflang: a.hreflang, href: a.href })}\n`,
  )
  return `  <url>\n    ${element('loc', url.loc)}\n    ${element('lastmod', url.lastmod)}\n${links.join('')}  </url>\n`
}

/**
 * The sitemap's files: one `sitemap.xml` within the limits; else parts within them, and
 * `sitemap.xml` the index of them, its locations under `base` (site.yaml's `api_url`: a sitemap
 * index names absolute URLs; relative without it).
 */
export function sitemapFiles(urls: readonly SitemapUrl[], base: string, limits = SITEMAP_LIMITS): EmittedFiles {
  const bytesForEntries = limits.bytes - Buffer.byteLength(HEAD) - Buffer.byteLength(TAIL)
  const parts: { entries: string[]; lastmod: string }[] = []
  let bytes = Number.POSITIVE_INFINITY
  for (const url of urls) {
    const entry = urlEntry(url)
    const size = Buffer.byteLength(entry)
    const part = parts.at(-1)
    if (!part || part.entries.length >= limits.urls || bytes + size > bytesForEntries) {
      parts.push({ entries: [entry], lastmod: url.lastmod })
      bytes = size
      continue
    }
    part.entries.push(entry)
    bytes += size
    if (url.lastmod > part.lastmod) part.lastmod = url.lastmod
  }
  const file = (entries: readonly string[]) => `${HEAD}${entries.join('')}${TAIL}`
  if (parts.length <= 1) return { [SITEMAP_PATH.slice(1)]: file(parts[0]?.entries ?? []) }
  const files: EmittedFiles = {}
  const index = parts.map((part, i) => {
    const path = `${SITEMAPS_PREFIX}/${i + 1}.xml`
    files[path.slice(1)] = file(part.entries)
    return `  <sitemap>\n    ${element('loc', `${base}${path}`)}\n    ${element('lastmod', part.lastmod)}\n  </sitemap>\n`
  })
  files[SITEMAP_PATH.slice(1)] =
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${index.join('')}</sitemapindex>\n`
  return files
}
