/**
 * Every public path of the product in one table. The gateway mounts its routes
 * on these, the build writes documents, Netlify rules and the OpenAPI document
 * with them, and the tests ask for them: a path is spelled once, here.
 */

/** The REST API's root: `/api/{collection}`, `/api/{collection}/{slug}`. */
export const API_PREFIX = '/api'
export const HEALTH_PATH = '/api/health'
/** Liveness: the process answers, whatever its build or its state store (a container's HEALTHCHECK). */
export const LIVENESS_PATH = '/api/health/live'
/** Ranked full-text search across collections: `/api/search?q=…`. */
export const SEARCH_PATH = '/api/search'
/** The change feed: `/api/changes[?since=<cursor>]`. */
export const CHANGES_PATH = '/api/changes'
/** Every tag with its counts, `/api/tags`, and a tag's items, `/api/tags/{tag}`. */
export const TAGS_PATH = '/api/tags'
/** Every redirect and gone address of the content, in the marketing site's page URLs. */
export const REDIRECTS_PATH = '/api/redirects'
/** Everyone who authors or speaks, `/api/people`, and one person's profile and items, `/api/people/{slug}`. */
export const PEOPLE_PATH = '/api/people'
/** Names under /api/ that are not collections; a collection may never be named after one. */
export const RESERVED_API_NAMES = ['health', 'search', 'changes', 'tags', 'redirects', 'people', 'preview'] as const
/** The preview API for reviewers, drafts and scheduled items included: `/api/preview/{collection}[/{slug}]`, `/api/preview/search`. */
export const PREVIEW_API_PATH = '/api/preview'
/** A share link's read-only page of one item, for a reviewer without an account: `/review/{token}`. */
export const REVIEW_PREFIX = '/review'

/** The marketing site's canonical URLs (sitemaps.org 0.9), and its parts when it is an index. */
export const SITEMAP_PATH = '/sitemap.xml'
export const SITEMAPS_PREFIX = '/sitemaps'

/** Feeds of each collection and of everything: `/feeds/{collection|all}.{xml,atom,json}`. */
export const FEEDS_PREFIX = '/feeds'
/** The feed of every collection together. */
export const ALL_FEED = 'all'
/** File extension of each feed format: RSS 2.0, Atom 1.0, JSON Feed 1.1. */
export const FEED_EXTENSIONS = { rss: 'xml', atom: 'atom', json: 'json' } as const
export type FeedFormat = keyof typeof FEED_EXTENSIONS

export function feedPath(name: string, format: FeedFormat, locale?: string): string {
  return `${FEEDS_PREFIX}/${locale ? `${locale}/` : ''}${name}.${FEED_EXTENSIONS[format]}`
}

/** iCalendar files: `/calendar/{collection}.ics` and `/calendar/{collection}/{slug}.ics`. */
export const CALENDAR_PREFIX = '/calendar'

export function calendarPath(collection: string, slug?: string, locale?: string): string {
  const prefix = locale ? `${CALENDAR_PREFIX}/${locale}` : CALENDAR_PREFIX
  return slug === undefined ? `${prefix}/${collection}.ics` : `${prefix}/${collection}/${slug}.ics`
}

/**
 * Processed images and social cards: `/media/{collection}/{name}-{hash}-{width}.{avif,webp,jpg,png}`.
 * Names carry a hash of the source bytes and the processing settings, so a file never changes
 * under its name and is served `immutable`.
 */
export const MEDIA_PREFIX = '/media'

/** The MCP endpoint (Streamable HTTP). */
export const MCP_PATH = '/mcp'

/** Documents of the build. */
export const OPENAPI_PATH = '/openapi.json'
export const DOCS_PATH = '/docs/'
export const LLMS_PATH = '/llms.txt'
export const LLMS_FULL_PATH = '/llms-full.txt'

/** A multilingual site's other locales: `llms-full.<locale>.txt`, the same reference with that locale's content. */
export function localeLlmsFullPath(locale: string): string {
  return `/llms-full.${locale}.txt`
}
/** Problem type pages: `/problems/<name>`. */
export const PROBLEMS_PREFIX = '/problems'

/** The author's preview of every item, drafts included: `npm run dev` only, never built or served by `npm start`. */
export const PREVIEW_PREFIX = '/preview'
/** `npm run dev` only: a Markdown body rendered by the build's renderer, for the editor's preview pane (POST). */
export const PREVIEW_RENDER_PATH = '/preview/_render'

/** The editor for authors (Decap CMS), its configuration generated from the schemas, and its assets. */
export const ADMIN_PATH = '/admin/'
export const ADMIN_CONFIG_PATH = '/admin/config.yml'
/** `npm run dev` only: Decap's local backend protocol over the working tree (POST). */
export const ADMIN_LOCAL_BACKEND_PATH = '/admin/api/v1'

/** RFC 9727 API catalog. */
export const API_CATALOG_PATH = '/.well-known/api-catalog'
/** RFC 9728 protected-resource metadata; the resource's path follows it (`…/mcp`). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource'
/** RFC 8414 authorization server metadata. */
export const AUTHORIZATION_SERVER_PATH = '/.well-known/oauth-authorization-server'

/** OpenID Connect Discovery 1.0 metadata of the embedded issuer (beside RFC 8414). */
export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration'

/** The embedded authorization server's endpoints, and its sign-in and consent pages under /oauth/interaction/. */
export const AUTHORIZE_PATH = '/oauth/authorize'
export const TOKEN_PATH = '/oauth/token'
export const JWKS_PATH = '/oauth/jwks.json'
export const REGISTRATION_PATH = '/oauth/register'
export const REVOCATION_PATH = '/oauth/revoke'
export const USERINFO_PATH = '/oauth/userinfo'
export const INTERACTION_PREFIX = '/oauth/interaction'

/** The two protected resources: the API as a whole and the MCP endpoint. */
export const RESOURCE_PATHS = ['', MCP_PATH] as const
export type ResourcePath = (typeof RESOURCE_PATHS)[number]

/**
 * The folders of paths the gateway answers when no file of the build does,
 * its JSON 404 included (the CDN sends them to the gateway).
 */
export const GATEWAY_FOLDERS = [API_PREFIX, '/.well-known'] as const

/** Where Netlify runs the gateway function; `_redirects` rewrites to `<prefix><original path>`. */
export const FUNCTION_PREFIX = '/.netlify/functions/gateway'
/** The function's name, as bundled into netlify-functions/ (the prefix's last segment). */
export const FUNCTION_NAME = 'gateway'
