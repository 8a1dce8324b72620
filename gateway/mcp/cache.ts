/**
 * Cache hints of the 2026-07-28 revision (`ttlMs`, `cacheScope`) for the
 * results clients may cache. Everything here changes only with a new build
 * (tools and prompts with a new release, items and resources with a new
 * content build), and nothing depends on who asks, so every hint is public.
 * The lifetimes are the CDN's for the same kind of answer on the REST side
 * (the header policy's CACHE.content, 60 s, and CACHE.document, 300 s), so
 * an agent sees a new build no later than a REST client does.
 */
import type { ServerOptions } from '@modelcontextprotocol/server'

/** Items and the lists of them: fresh for as long as a REST list or item. */
export const CONTENT_TTL_MS = 60_000
/** Tools, prompts, templates and the server's description: fresh for as long as the OpenAPI document. */
export const SURFACE_TTL_MS = 300_000

export const CACHE_HINTS: NonNullable<ServerOptions['cacheHints']> = {
  'server/discover': { ttlMs: SURFACE_TTL_MS, cacheScope: 'public' },
  'tools/list': { ttlMs: SURFACE_TTL_MS, cacheScope: 'public' },
  'prompts/list': { ttlMs: SURFACE_TTL_MS, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: SURFACE_TTL_MS, cacheScope: 'public' },
  'resources/list': { ttlMs: CONTENT_TTL_MS, cacheScope: 'public' },
  'resources/read': { ttlMs: CONTENT_TTL_MS, cacheScope: 'public' },
}
