/**
 * Response headers in one place: caching per resource kind, CORS for public
 * reads, and the security headers every answer carries.
 */
import { API_VERSION, API_VERSION_HEADER } from './lifecycle.ts'

const CONTENT_MAX_AGE = 60
const CONTENT_STALE = 600

/** The longest a cache may keep a list or item, fresh and then stale: CACHE.content's whole lifetime. */
export const CONTENT_LIFETIME_SECONDS = CONTENT_MAX_AGE + CONTENT_STALE

export const CACHE = {
  /** Lists and items: fresh for a minute, served stale while revalidating for ten. */
  content: `public, max-age=${CONTENT_MAX_AGE}, stale-while-revalidate=${CONTENT_STALE}`,
  /** OpenAPI, llms.txt, well-known documents, docs page. */
  document: 'public, max-age=300, stale-while-revalidate=3600',
  none: 'no-store',
  /** Processed images (/media/): their names change whenever their bytes do. */
  immutable: 'public, max-age=31536000, immutable',
} as const

/**
 * CACHE.content for an answer that is right only until `changesAt` (epoch
 * ms; a `when=upcoming` list until the next start): fresh and then stale
 * together no longer than that, so no cache that keeps to it serves the
 * answer after it changed. Without an end, CACHE.content.
 *
 * @example contentCacheUntil(now, now + 90_000) // 'public, max-age=60, stale-while-revalidate=30'
 */
export function contentCacheUntil(now: number, changesAt: number | undefined): string {
  const left = changesAt === undefined ? Infinity : Math.max(0, Math.floor((changesAt - now) / 1000))
  if (left >= CONTENT_LIFETIME_SECONDS) return CACHE.content
  const maxAge = Math.min(CONTENT_MAX_AGE, left)
  return `public, max-age=${maxAge}, stale-while-revalidate=${left - maxAge}`
}

/** The most bytes of request line and headers together the gateway reads; more is a 431 (Node's parser enforces it). */
export const MAX_HEADER_BYTES = 16 * 1024

export const EXPOSED_HEADERS =
  'ETag, Link, X-Total-Count, X-Request-Id, Retry-After, RateLimit, RateLimit-Policy, WWW-Authenticate, API-Version, Deprecation, Sunset'

const API_VERSION_LOWER = API_VERSION_HEADER.toLowerCase()
export const ALLOWED_REQUEST_HEADERS =
  'Authorization, Content-Type, Accept, If-None-Match, X-Request-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID'

/**
 * Policy of the build's HTML pages (/docs/, /problems/*): everything they use is
 * inline (the Redoc bundle, its styles, the OpenAPI document) and nothing may
 * come from another host. Redoc runs its search in a blob: worker.
 */
export const HTML_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; worker-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * Policy of the editor at /admin/: Decap CMS runs from our own files (it
 * compiles its configuration schema with ajv, hence 'unsafe-eval', and styles
 * itself inline), talks to this origin and to GitHub's API, and shows images
 * from wherever content links them. An upload is held as a blob: URL until it
 * is saved, and read back from it then (connect-src blob:). Sign-in opens
 * Netlify's OAuth page in a window of its own, which no directive here covers.
 */
export const ADMIN_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data: blob:; " +
  "font-src 'self' data:; connect-src 'self' blob: https://api.github.com; frame-src 'self' blob:; worker-src 'self' blob:; " +
  "base-uri 'self'; form-action 'none'; frame-ancestors 'none'"

/** Headers on every answer: request id, CORS for reads, no sniffing, no framing, the API's version. */
export function baseHeaders(requestId: string, contentType: string, cacheControl: string): Headers {
  return new Headers(baseHeaderRecord(requestId, contentType, cacheControl))
}

/**
 * The same headers as a plain object: the hot read path hands these straight
 * to the Node response, without building a `Headers` instance per request.
 */
export function baseHeaderRecord(requestId: string, contentType: string, cacheControl: string): Record<string, string> {
  return {
    // First, as the Node server sets it before the app answers (gateway/server.ts): one order on every path.
    [API_VERSION_LOWER]: API_VERSION,
    'content-type': contentType,
    'cache-control': cacheControl,
    'x-request-id': requestId,
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED_HEADERS,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // JSON and text are never rendered as documents; HTML pages (docs, problem pages) get the page policy.
    'content-security-policy': contentType.startsWith('text/html')
      ? HTML_CSP
      : "default-src 'none'; frame-ancestors 'none'",
  }
}

export const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.xml': 'application/xml; charset=utf-8',
  '.atom': 'application/atom+xml; charset=utf-8',
  '.ics': 'text/calendar; charset=utf-8',
  '.yml': 'text/yaml; charset=utf-8',
  '.wasm': 'application/wasm',
  // TypeScript has no registered media type; as text, a browser shows it (the client types, /docs/content-api.d.ts).
  '.ts': 'text/plain; charset=utf-8',
}

export const JSON_TYPE = CONTENT_TYPES['.json']!
/** Media types of request bodies (the route table's), without parameters. */
export const JSON_MEDIA_TYPE = 'application/json'
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded'
export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8'
