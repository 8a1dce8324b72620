/**
 * The origin a build writes into what it publishes: the records' image URLs
 * and their sources, the social cards, the feeds' self links, llms-full.txt,
 * the OpenAPI document's server. One source: PUBLIC_URL when it is set, else
 * content/site.yaml's `api_url` (the production address, committed with the
 * content: what `npm run build` and the Netlify build write). The builds that
 * `npm start` serves on this machine write the gateway's own address instead,
 * so that every URL loads from the gateway that serves it; the bytes of a
 * build depend on its origin only (and the origin is part of the input hash,
 * so a build for another origin is never "up to date").
 */
import type { Settings } from './settings.ts'

/**
 * The origin a build writes: a URL origin, `null` for root-relative URLs, or
 * undefined for site.yaml's `api_url` (absolute with it, root-relative without).
 */
export type ApiOrigin = string | null | undefined

/**
 * Where a gateway on this machine is reached: PUBLIC_URL, else the address it
 * listens on; null when that is any free port (PORT=0), which no build can know
 * beforehand (root-relative URLs then load from it all the same).
 */
export function localOrigin(settings: Pick<Settings, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string | null {
  if (settings.PUBLIC_URL !== undefined) return settings.PUBLIC_URL
  if (settings.PORT === 0) return null
  const host = settings.HOST.includes(':') ? `[${settings.HOST}]` : settings.HOST
  return `http://${host}:${settings.PORT}`
}

/** The origin of a build run with `settings`: `npm start`'s build (npm_lifecycle_event) writes the local one. */
export function buildOrigin(
  settings: Pick<Settings, 'PUBLIC_URL' | 'HOST' | 'PORT' | 'npm_lifecycle_event'>,
): ApiOrigin {
  if (settings.PUBLIC_URL !== undefined) return settings.PUBLIC_URL
  return settings.npm_lifecycle_event === 'start' ? localOrigin(settings) : undefined
}
