/**
 * Feeds of each collection and of everything, in RSS 2.0, Atom 1.0 and JSON
 * Feed 1.1 (`/feeds/{collection|all}.{xml,atom,json}`): the newest
 * FEED_ENTRIES items by published_at, each with its full HTML body, authors,
 * tags as categories, and its canonical URL as its stable id.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import { ALL_FEED, FEED_EXTENSIONS, feedPath, type FeedFormat } from '../../contract/public-paths.ts'
import type { FullRecord } from '../../contract/records.ts'
import { FEED_ENTRIES } from '../../contract/documents.ts'
import { NOTIFY_FILE, NOTIFY_FORMAT, type NotifyInfo } from '../../contract/webhook-events.ts'
import { atom, jsonFeed, rss, type FeedEntry, type FeedImage, type FeedModel } from './feed-formats.ts'
import type { ImageObject, SocialImage } from '../../contract/media.ts'
import type { BuiltContent, EmittedFiles, Emitter } from './types.ts'

/** Entries per feed: a reader's first page; older items are an API list away. */
export { FEED_ENTRIES } from '../../contract/documents.ts'

const WRITERS: Record<FeedFormat, (feed: FeedModel) => string> = { rss, atom, json: jsonFeed }

interface FeedSource {
  name: string
  title: string
  description: string
  homePage: string
  items: [CollectionName, FullRecord][]
}

export const emitFeeds = {
  name: 'feeds',
  input: 'content',
  emit(content) {
    const files: EmittedFiles = {}
    const feeds = new Map<string | undefined, FeedSource[]>([
      [undefined, writeFeeds(content, content.collections, content.site.language, undefined, files)],
    ])
    // A multilingual site's other locales: the same feeds of their lists, under /feeds/<locale>/.
    for (const [locale, view] of Object.entries(content.locales ?? {}))
      feeds.set(locale, writeFeeds(content, view.collections, locale, locale, files))
    files[NOTIFY_FILE] = JSON.stringify(notifyInfo(content, feeds))
    return files
  },
} satisfies Emitter

/** The feeds of one locale's records into `files`; their sources. */
function writeFeeds(
  content: BuiltContent,
  collections: BuiltContent['collections'],
  language: string,
  locale: string | undefined,
  files: EmittedFiles,
): FeedSource[] {
  const { site } = content
  const { names } = site.model
  const pages = locale ? `/${locale.toLowerCase()}` : ''
  const pairs = (c: CollectionName) => collections[c]!.map((r): [CollectionName, FullRecord] => [c, r])
  const feeds: FeedSource[] = [
    ...names.map(
      (c): FeedSource => ({
        name: c,
        title: `${site.name}: ${site.collections[c]!.title}`,
        description: `${site.collections[c]!.title} from ${site.name}, newest first.`,
        homePage: `${site.url}${pages}${site.collections[c]!.path}`,
        items: pairs(c),
      }),
    ),
    {
      name: ALL_FEED,
      title: site.name,
      description: site.description || `Everything ${site.name} publishes, newest first.`,
      homePage: `${site.url}${pages}`,
      items: names.flatMap(pairs),
    },
  ]
  for (const feed of feeds) {
    const { name } = feed
    const entries = newestFirst(feed.items, names)
      .slice(0, FEED_ENTRIES)
      .map(([c, r]) => feedEntry(r, site.collections[c]!.people))
    const model: FeedModel = {
      title: feed.title,
      description: feed.description,
      homePage: feed.homePage,
      self: {
        rss: selfLink(content, name, 'rss', locale),
        atom: selfLink(content, name, 'atom', locale),
        json: selfLink(content, name, 'json', locale),
      },
      // The latest update of its entries; an empty feed takes the build's time.
      updated: entries.reduce(
        (latest, e) => (Date.parse(e.updated) > Date.parse(latest) ? e.updated : latest),
        entries[0]?.updated ?? content.contentUpdatedAt,
      ),
      language,
      publisher: site.name,
      generator: 'Content API',
      hub: site.websubHub,
      entries,
    }
    for (const format of Object.keys(FEED_EXTENSIONS) as FeedFormat[])
      files[feedPath(name, format, locale).slice(1)] = WRITERS[format](model)
  }
  return feeds
}

/**
 * What webhooks and the WebSub ping need of the site (contract/webhook-events.ts): every feed of
 * every locale is a WebSub topic (`/feeds/<locale>/…` too), and a translation's page is in its locale.
 */
function notifyInfo(content: BuiltContent, feeds: Map<string | undefined, FeedSource[]>): NotifyInfo {
  const { site } = content
  const pagesIn = (prefix: string) =>
    Object.fromEntries(
      site.model.names.map((c) => [c, `${site.url}${prefix}${site.collections[c]!.path}`]),
    ) as NotifyInfo['pages']
  const paths = [...feeds].flatMap(([locale, sources]) =>
    sources.flatMap((f) => (Object.keys(FEED_EXTENSIONS) as FeedFormat[]).map((x) => feedPath(f.name, x, locale))),
  )
  const others = Object.keys(content.locales ?? {})
  return {
    format: NOTIFY_FORMAT,
    api_url: site.apiUrl ?? null,
    language: site.language,
    pages: pagesIn(''),
    ...(others.length && {
      locale_pages: Object.fromEntries(others.map((l) => [l, pagesIn(`/${l.toLowerCase()}`)])),
    }),
    websub: site.websubHub ? { hub: site.websubHub, feeds: paths } : null,
  }
}

/** Where a feed is served: absolute when the site settings name the API's URL. */
function selfLink(content: BuiltContent, name: string, format: FeedFormat, locale?: string): string {
  return `${content.site.apiUrl ?? ''}${feedPath(name, format, locale)}`
}

/** By publication, newest first; then the latest update; then collection and slug, so the order is total. */
function newestFirst(
  items: [CollectionName, FullRecord][],
  names: readonly CollectionName[],
): [CollectionName, FullRecord][] {
  const keyed = items.map(([c, r]) => ({
    item: [c, r] as [CollectionName, FullRecord],
    published: Date.parse(r.published_at),
    updated: Date.parse(r.updated_at),
    order: names.indexOf(c),
  }))
  keyed.sort(
    (a, b) =>
      b.published - a.published ||
      b.updated - a.updated ||
      a.order - b.order ||
      compare(a.item[1].slug, b.item[1].slug),
  )
  return keyed.map((k) => k.item)
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Names of the people behind an item (its collection's `fields` of people): a post's authors, a webinar's speakers. */
function peopleOf(record: FullRecord, fields: readonly string[]): string[] {
  return fields.flatMap((field) => {
    const value = record[field] as { name: string } | { name: string }[] | null | undefined
    return (Array.isArray(value) ? value : value ? [value] : []).map((p) => p.name)
  })
}

function feedEntry(record: FullRecord, people: readonly string[]): FeedEntry {
  const url = String(record.url)
  return {
    id: url,
    url,
    title: record.title,
    summary: String(record.summary ?? ''),
    html: record.body.html,
    published: record.published_at,
    updated: record.updated_at,
    authors: peopleOf(record, people),
    tags: record.tags,
    image: feedImage(record),
  }
}

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
}

/** The item's image, else its social card; only an absolute URL (an external one, or a processed one with api_url set). */
function feedImage(record: FullRecord): FeedImage | undefined {
  const image = (record.image as ImageObject | null) ?? (record.social_image as SocialImage | null)
  if (!image || !/^https?:\/\//.test(image.url)) return undefined
  const extension = /\.([a-z]+)(?:[?#]|$)/i.exec(image.url)?.[1]?.toLowerCase()
  return { url: image.url, type: extension ? TYPES[extension] : undefined, width: image.width, height: image.height }
}
