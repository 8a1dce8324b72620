/**
 * The headers of static answers, taken from the gateway's own header code so
 * a file served by Netlify's CDN carries what the gateway would send with it
 * (less the per-request id and the ETag, which Netlify computes itself).
 */
import { extname } from 'node:path'
import { baseHeaderRecord, CACHE, CONTENT_TYPES, JSON_TYPE } from '../../contract/headers.ts'
import { DOCUMENT_HEADERS, documentType } from '../../contract/documents.ts'
import { capCacheControl, longestLifetime } from '../../contract/schedule.ts'

/** Set per kind of file below; everything else baseHeaders sends is the same for every file. */
const PER_FILE = new Set(['content-type', 'cache-control', 'content-security-policy', 'x-request-id'])

/**
 * The headers `keep` accepts, in the order a Headers object lists them (by
 * lower-case name). A plain record, not a Headers: making one loads Node's
 * fetch implementation, a tenth of a second of every build's start.
 */
function pick(headers: Record<string, string>, keep: (name: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {}
  const names = Object.keys(headers).sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
  for (const name of names) if (keep(name.toLowerCase())) out[name.toLowerCase()] = headers[name]!.trim()
  return out
}

/** On every path: CORS, no sniffing, no referrer. */
export const SITE_HEADERS = pick(baseHeaderRecord('', JSON_TYPE, CACHE.none), (name) => !PER_FILE.has(name))

/** What a file's own rule sets: its media type, caching, and the JSON CSP unless it is a page. */
export function fileHeaders(contentType: string, cacheControl: string): Record<string, string> {
  return pick(baseHeaderRecord('', contentType, cacheControl), (name) => PER_FILE.has(name) && name !== 'x-request-id')
}

/** Lists and items under /api/. */
export const LIST_HEADERS = fileHeaders(JSON_TYPE, CACHE.content)

/** A document of the build (openapi.json, llms.txt, .well-known/*, docs/), as the static route types it. */
export function documentHeaders(file: string): Record<string, string> {
  const path = `/${file}`
  const type = documentType(path) ?? CONTENT_TYPES[extname(file)] ?? 'application/octet-stream'
  return { ...fileHeaders(type, CACHE.document), ...DOCUMENT_HEADERS[path] }
}

/**
 * A `_headers` line as it stands `left` seconds before the build's next
 * release or expiry (at build time): a Cache-Control whose lifetimes are
 * longer than that is capped at it (max-age and s-maxage at `left`, the
 * stale allowances at what remains: contract/schedule.ts `capCacheControl`,
 * the gateway's own rule); one within it is left as it is, and so are media,
 * named by their bytes (immutable). `_headers` cannot say anything that
 * changes with the clock: the release's own build and deploy, which purges
 * Netlify's CDN, brings the next headers (docs/operating.md, "Scheduled publishing").
 */
export function capBeforeScheduled(line: string, left: number): string {
  const m = /^(\s+cache-control:\s*)(.*)$/i.exec(line)
  if (!m || left >= longestLifetime(m[2]!)) return line
  return `${m[1]}${capCacheControl(m[2]!, left)}`
}
