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
import type { BuildInfo } from '../../contract/manifest.ts'
import { secondsToScheduled } from '../../contract/schedule.ts'

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

/**
 * The hints for a request at `now` (ms) over a build: none outlives the build's next release or
 * expiry (contract/schedule.ts), as no REST answer's Cache-Control does.
 */
export function cacheHintsAt(build: Partial<BuildInfo>, now: number): typeof CACHE_HINTS {
  const left = secondsToScheduled(build, now)
  if (left === undefined || left * 1000 >= SURFACE_TTL_MS) return CACHE_HINTS
  const capped: typeof CACHE_HINTS = {}
  for (const [method, hint] of Object.entries(CACHE_HINTS))
    capped[method as keyof typeof CACHE_HINTS] = { ...hint, ttlMs: Math.min(hint.ttlMs ?? 0, left * 1000) }
  return capped
}
