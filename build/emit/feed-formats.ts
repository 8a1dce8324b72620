/**
 * The three feed formats, written from one model: RSS 2.0 (with the Atom
 * self link, content:encoded and dc:creator), Atom 1.0 (RFC 4287) and JSON
 * Feed 1.1. Written by hand: the formats are small, and the `feed` package
 * writes JSON Feed 1.0, needs absolute self links and puts names where RSS
 * wants an email address. Every date comes from the content, so the same
 * content gives the same bytes.
 */
import { element, indent, xmlText } from './xml.ts'

export interface FeedEntry {
  /** Stable identifier: the item's canonical URL. */
  id: string
  url: string
  title: string
  summary: string
  /** Full body, sanitised HTML. */
  html: string
  published: string
  updated: string
  authors: string[]
  tags: string[]
  /** The item's image (else its social card), when its URL is absolute (api_url in site.yaml): feeds are read off-site. */
  image: FeedImage | undefined
}

export interface FeedImage {
  url: string
  type: string | undefined
  width: number | null
  height: number | null
}

export interface FeedModel {
  title: string
  description: string
  /** The page the feed is about (absolute URL on the marketing site). */
  homePage: string
  /** Where each format of this feed is served. */
  self: { rss: string; atom: string; json: string }
  /** The latest update of any entry (the feed's own `updated`). */
  updated: string
  language: string
  /** The publisher: the author of entries that name none. */
  publisher: string
  generator: string
  /** The WebSub hub subscribers may use (`rel="hub"`, JSON Feed `hubs`), if any. */
  hub: string | undefined
  entries: FeedEntry[]
}

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>'

const escapedHtml = new WeakMap<FeedEntry, string>()

/**
 * An entry's body as XML text, escaped once: RSS and Atom both carry it, and an entry
 * object is shared by its collection's feed and the feed of everything (feeds.ts).
 */
function htmlText(entry: FeedEntry): string {
  let text = escapedHtml.get(entry)
  if (text === undefined) {
    text = xmlText(entry.html)
    escapedHtml.set(entry, text)
  }
  return text
}

/** RFC 822 date as RSS 2.0 wants it (`Sun, 01 Mar 2026 10:00:00 GMT`). */
const rfc822 = (instant: string) => new Date(instant).toUTCString()

export function rss(feed: FeedModel): string {
  const items = feed.entries.map((e) => [
    '<item>',
    ...indent(
      [
        element('title', e.title),
        element('link', e.url),
        element('guid', e.id, { isPermaLink: e.id === e.url ? 'true' : 'false' }),
        element('pubDate', rfc822(e.published)),
        element('description', e.summary),
        ...e.authors.map((name) => element('dc:creator', name)),
        ...e.tags.map((tag) => element('category', tag)),
        `<content:encoded>${htmlText(e)}</content:encoded>`,
        ...(e.image ? [element('media:content', undefined, mediaAttributes(e.image))] : []),
      ],
      1,
    ),
    '</item>',
  ])
  const channel = [
    element('title', feed.title),
    element('link', feed.homePage),
    element('description', feed.description),
    element('language', feed.language),
    element('lastBuildDate', rfc822(feed.updated)),
    element('generator', feed.generator),
    element('atom:link', undefined, { href: feed.self.rss, rel: 'self', type: 'application/rss+xml' }),
    ...(feed.hub ? [element('atom:link', undefined, { href: feed.hub, rel: 'hub' })] : []),
    ...items.flat(),
  ]
  const namespaces =
    'xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/"'
  return [
    XML_DECLARATION,
    `<rss version="2.0" ${namespaces}>`,
    '  <channel>',
    ...indent(channel, 2),
    '  </channel>',
    '</rss>',
    '',
  ].join('\n')
}

/** Media RSS: the image's URL, kind, type and size where known. */
function mediaAttributes(image: FeedImage): Record<string, string> {
  return {
    url: image.url,
    medium: 'image',
    ...(image.type && { type: image.type }),
    ...(image.width !== null && { width: String(image.width) }),
    ...(image.height !== null && { height: String(image.height) }),
  }
}

export function atom(feed: FeedModel): string {
  const person = (name: string) => ['<author>', `  ${element('name', name)}`, '</author>']
  const entries = feed.entries.map((e) => [
    '<entry>',
    ...indent(
      [
        element('id', e.id),
        element('title', e.title),
        element('link', undefined, { rel: 'alternate', type: 'text/html', href: e.url }),
        element('published', e.published),
        element('updated', e.updated),
        ...e.authors.flatMap(person),
        ...e.tags.map((tag) => element('category', undefined, { term: tag })),
        element('summary', e.summary),
        `<content type="html">${htmlText(e)}</content>`,
        ...(e.image
          ? [
              element('link', undefined, {
                rel: 'enclosure',
                href: e.image.url,
                ...(e.image.type && { type: e.image.type }),
              }),
            ]
          : []),
      ],
      1,
    ),
    '</entry>',
  ])
  const head = [
    element('id', feed.homePage),
    element('title', feed.title),
    element('subtitle', feed.description),
    element('updated', feed.updated),
    element('link', undefined, { rel: 'alternate', type: 'text/html', href: feed.homePage }),
    element('link', undefined, { rel: 'self', type: 'application/atom+xml', href: feed.self.atom }),
    ...(feed.hub ? [element('link', undefined, { rel: 'hub', href: feed.hub })] : []),
    ...person(feed.publisher),
    element('generator', feed.generator),
  ]
  return [
    XML_DECLARATION,
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xmlText(feed.language)}">`,
    ...indent([...head, ...entries.flat()], 1),
    '</feed>',
    '',
  ].join('\n')
}

/** JSON Feed 1.1; `feed_url` only when the feed's address is absolute (the format asks for a URL). */
export function jsonFeed(feed: FeedModel): string {
  const document = {
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    home_page_url: feed.homePage,
    ...(/^https?:\/\//.test(feed.self.json) && { feed_url: feed.self.json }),
    description: feed.description,
    language: feed.language,
    authors: [{ name: feed.publisher }],
    ...(feed.hub && { hubs: [{ type: 'WebSub', url: feed.hub }] }),
    items: feed.entries.map((e) => ({
      id: e.id,
      url: e.url,
      title: e.title,
      summary: e.summary,
      content_html: e.html,
      ...(e.image && { image: e.image.url }),
      date_published: e.published,
      date_modified: e.updated,
      authors: (e.authors.length ? e.authors : [feed.publisher]).map((name) => ({ name })),
      ...(e.tags.length > 0 && { tags: e.tags }),
    })),
  }
  return `${JSON.stringify(document, null, 2)}\n`
}
