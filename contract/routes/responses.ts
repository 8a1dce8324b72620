/**
 * The pieces operations share in the route table: the problem answers (one
 * shared response per status, typed by contract/problems.ts), the 304, the
 * headers of content and documents, and who may call.
 */
import type { CollectionModel } from '../model/model.ts'
import { headerRef, responseRef, type Json } from './schema.ts'
import type { SecurityRequirement } from './route.ts'

/** The shared problem response of each status: `problems(400, 406, 503)`. */
export const problems = (...statuses: number[]): Record<string, Json> =>
  Object.fromEntries(statuses.map((s) => [String(s), responseRef(`Problem${s}`)]))

export const NOT_MODIFIED = responseRef('NotModified')

/** Headers of every answer the gateway or the CDN gives: CORS (CDN files carry no request id). */
export const CORS_HEADERS = { 'Access-Control-Allow-Origin': headerRef('Access-Control-Allow-Origin') }

/** Lists, items, search and the change feed. */
export const CONTENT_HEADERS = {
  ETag: headerRef('ETag'),
  'Cache-Control': headerRef('Cache-Control'),
  'X-Request-Id': headerRef('X-Request-Id'),
  ...CORS_HEADERS,
}

/** Pages of a list: the total and the links to the next and previous pages. */
export const PAGE_HEADERS = { ...CONTENT_HEADERS, 'X-Total-Count': headerRef('X-Total-Count'), Link: headerRef('Link') }

/** A multilingual site's lists and items: their locale, and what they vary by when Accept-Language chose it. */
export const LOCALE_HEADERS = { 'Content-Language': headerRef('Content-Language'), Vary: headerRef('Vary') }

/** Documents of the build: cacheable files. */
export const DOCUMENT_HEADERS = {
  ETag: headerRef('ETag'),
  'Cache-Control': headerRef('Cache-Control'),
  ...CORS_HEADERS,
}

/**
 * A public read: anonymous, or a token with `api.read` or the collection's
 * own scope, or an API key. The bytes are the same either way.
 */
export function publicRead(collection?: CollectionModel): SecurityRequirement[] {
  const scoped = collection ? [{ oauth2: [collection.scope] }] : []
  return [{}, { oauth2: ['api.read'] }, ...scoped, { apiKey: [] }]
}

/** No credential needed (and none looked at): anyone may call. */
export const ANONYMOUS: SecurityRequirement[] = [{}]
