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
import { loadOnce } from '../load-once.ts'
import { createLogger } from '../log.ts'
import { gatewayOptions } from '../setup.ts'
import { findDist } from './dist-dir.ts'
import { FUNCTION_PREFIX } from '../../contract/public-paths.ts'
import { report } from '../../contract/cli.ts'
import { CACHE, PROBLEM_TYPE } from '../../contract/headers.ts'
import { PROBLEM_TYPES, problemTypeUri, type ProblemBody } from '../../contract/problems.ts'

/** Set by the bundler (build/netlify-function.ts) from package.json. */
declare const __GATEWAY_VERSION__: string | undefined

/** Without PUBLIC_URL: Netlify's site URL, else the origin the last request came to. */
let requestOrigin = 'http://localhost'

async function init(): Promise<H3> {
  // The 'netlify' defaults: TRUST_PROXY=netlify (every request comes through Netlify's
  // edge, which sets x-nf-client-connection-ip; there is no socket address here) and
  // OAUTH_STORE=netlify-blobs (instances share no disk).
  const config = readConfig(process.env, 'netlify')
  const log = createLogger(config.logLevel)
  // A deploy's files never change under the function: each is checked when first read, not all at every cold start.
  const store = new ArtifactStore(await findDist(config.distDir), {
    cacheMb: config.fileCacheMb,
    checkFiles: 'on-read',
  })
  // Without a build the app still answers: health and content say 503.
  await store.reload().catch((error: Error) => log('error', 'no build loaded', { error: error.message }))
  const version = typeof __GATEWAY_VERSION__ === 'string' ? __GATEWAY_VERSION__ : '0.0.0'
  const fallbackUrl = () => process.env.URL || requestOrigin
  try {
    return createApp({ store, ...(await gatewayOptions(config, store, { version, logger: log, fallbackUrl })) })
  } catch (error) {
    // Bad credential settings must not take the content down with them.
    log('error', 'credentials and /mcp are off: their settings failed', { error: (error as Error).message })
    return createApp({ store, version, logger: log, limits: config.limits })
  }
}

// A failed start is retried on the next request instead of poisoning the instance.
const ready = loadOnce(init)

/** Undo the rewrite: the app routes on the path the client asked for. */
export async function originalRequest(req: Request): Promise<Request> {
  const url = new URL(req.url)
  if (url.pathname !== FUNCTION_PREFIX && !url.pathname.startsWith(`${FUNCTION_PREFIX}/`)) return req
  url.pathname = url.pathname.slice(FUNCTION_PREFIX.length) || '/'
  // Netlify has already buffered the body (6 MB at most); the app's own caps still apply.
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.arrayBuffer()
  return new Request(url, { method: req.method, headers: req.headers, body })
}

export default async function handler(req: Request): Promise<Response> {
  requestOrigin = new URL(req.url).origin
  let app: H3
  try {
    app = await ready()
  } catch (error) {
    return cannotStart(error)
  }
  return app.fetch(await originalRequest(req))
}

/**
 * A start that failed (a bad setting, say) is one line in the function's log,
 * as it is for `npm start`, and a 503 problem for the caller, which names
 * nothing of the settings.
 */
function cannotStart(error: unknown): Response {
  report(error)
  const body: ProblemBody = {
    type: problemTypeUri('unavailable'),
    title: PROBLEM_TYPES.unavailable.title,
    status: 503,
    detail: 'The gateway cannot start; its log says why.',
  }
  return new Response(JSON.stringify(body), {
    status: 503,
    headers: { 'content-type': PROBLEM_TYPE, 'cache-control': CACHE.none, 'retry-after': '30' },
  })
}
