/**
 * How the build's documents are served: media types of extension-less
 * documents and feeds, and the extra headers some carry. The gateway's static route and
 * the Netlify `_headers` file both read this, so the CDN and the gateway agree.
 */
import { ADMIN_CSP } from './headers.ts'
import type { ContentModel } from './model/model.ts'
import {
  ADMIN_PATH,
  ALL_FEED,
  API_CATALOG_PATH,
  AUTHORIZATION_SERVER_PATH,
  FEED_EXTENSIONS,
  FEEDS_PREFIX,
  MCP_PATH,
  PROTECTED_RESOURCE_PATH,
  type FeedFormat,
} from './public-paths.ts'

/** The RFC 9727 API catalog's media type and self link. */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727'
export const API_CATALOG_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`
export const API_CATALOG_LINK = `<${API_CATALOG_PATH}>; rel="api-catalog"`

const JSON_DOCUMENT = 'application/json; charset=utf-8'

/** Media types of the feeds: `.xml` and `.json` alone would say XML and JSON, not which feed format. */
export const FEED_TYPES: Record<FeedFormat, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
}

/** The names a feed is published under: each collection of `model`, and everything. */
export function feedNames(model: ContentModel): string[] {
  return [...model.names, ALL_FEED]
}
/** Items in each feed: the newest by published_at. */
export const FEED_ENTRIES = 50

/** Media types by path where the extension does not tell (extension-less documents, feeds). */
export const DOCUMENT_TYPES: Record<string, string> = {
  [API_CATALOG_PATH]: API_CATALOG_TYPE,
  [AUTHORIZATION_SERVER_PATH]: JSON_DOCUMENT,
  [PROTECTED_RESOURCE_PATH]: JSON_DOCUMENT,
  [`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`]: JSON_DOCUMENT,
}

/** A feed's format by its file's extension (`.xml` RSS, `.atom` Atom, `.json` JSON Feed). */
const FEED_FORMATS = Object.fromEntries(
  (Object.keys(FEED_EXTENSIONS) as FeedFormat[]).map((format) => [FEED_EXTENSIONS[format], format]),
) as Record<string, FeedFormat>

/** A feed: `/feeds/<name>.<ext>`, or a multilingual site's `/feeds/<locale>/<name>.<ext>`. */
const FEED_FILE = new RegExp(`^${FEEDS_PREFIX}/(?:[^/]+/)?[^/]+\\.([a-z]+)$`)

/**
 * The media type of a document by its path, where the extension does not tell: DOCUMENT_TYPES,
 * and the feeds of every collection and locale (`/feeds/de/all.xml` is RSS like `/feeds/all.xml`).
 */
export function documentType(path: string): string | undefined {
  const format = FEED_FORMATS[FEED_FILE.exec(path)?.[1] ?? '']
  return DOCUMENT_TYPES[path] ?? (format ? FEED_TYPES[format] : undefined)
}

/** Extra headers of documents, by path (RFC 9727: the catalog links to itself; the editor's page has its own policy). */
export const DOCUMENT_HEADERS: Record<string, Record<string, string>> = {
  [API_CATALOG_PATH]: { link: API_CATALOG_LINK },
  [ADMIN_PATH]: { 'content-security-policy': ADMIN_CSP },
  [`${ADMIN_PATH}index.html`]: { 'content-security-policy': ADMIN_CSP },
}

/**
 * Bounds of the metadata documents (RFC 8414, RFC 9728) the gateway serves:
 * its own, and an external issuer's, which it mirrors only within them.
 */
export const METADATA_LIMITS = { url: 2000, item: 200, items: 100 } as const
