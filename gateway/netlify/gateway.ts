/**
 * The gateway as a Netlify Function (v2, web-standard Request/Response). The
 * CDN serves dist/ and the pre-rendered lists; the generated `_redirects`
 * (build/emit/netlify.ts) rewrites everything else here, to
 * `/.netlify/functions/gateway/<original path>` with the query passed on.
 * The same h3 app as `npm start` answers, over the dist/ files bundled with
 * the function (`included_files` in netlify.toml).
 */
import type { H3 } from 'h3'
import { createApp } from '../app.ts'
import { ArtifactStore } from '../artifacts.ts'
import { readConfig } from '../config.ts'
import { createLogger } from '../log.ts'
import { findDist } from './dist-dir.ts'

/** The rewrite target prefix; the original path follows it. */
export const FUNCTION_PREFIX = '/.netlify/functions/gateway'

/** Set by the bundler (build/netlify-function.ts) from package.json. */
declare const __GATEWAY_VERSION__: string | undefined

let ready: Promise<H3> | undefined

async function init(): Promise<H3> {
  const config = readConfig(process.env)
  const log = createLogger(config.logLevel)
  const store = new ArtifactStore(await findDist(config.distDir))
  // Without a build the app still answers: health and content say 503.
  await store.reload().catch((error: Error) => log('error', 'no build loaded', { error: error.message }))
  const version = typeof __GATEWAY_VERSION__ === 'string' ? __GATEWAY_VERSION__ : '0.0.0'
  return createApp({ store, version, logger: log })
}

/** Undo the rewrite: the app routes on the path the client asked for. */
export function originalRequest(req: Request): Request {
  const url = new URL(req.url)
  if (url.pathname !== FUNCTION_PREFIX && !url.pathname.startsWith(`${FUNCTION_PREFIX}/`)) return req
  url.pathname = url.pathname.slice(FUNCTION_PREFIX.length) || '/'
  return new Request(url, req)
}

export default async function handler(req: Request): Promise<Response> {
  // A failed start is retried on the next request instead of poisoning the instance.
  const app = await (ready ??= init().catch((error: unknown) => {
    ready = undefined
    throw error
  }))
  return app.fetch(originalRequest(req))
}
