/**
 * The gateway as a Netlify Function (v2, web-standard Request/Response). The
 * CDN serves dist/ and the pre-rendered lists; the generated `_redirects`
 * (build/emit/netlify.ts) rewrites everything else here, to
 * `/.netlify/functions/gateway/<original path>` with the query passed on.
 * The same gateway as `npm start` answers (createGateway), over the dist/
 * files bundled with the function (`included_files` in netlify.toml).
 */
import { createGateway, type Gateway } from '../gateway.ts'
import { loadOnce } from '../load-once.ts'
import { createLogger } from '../log.ts'
import { findDist } from './dist-dir.ts'
import { FUNCTION_PREFIX } from '../../contract/public-paths.ts'
import { report } from '../../contract/cli.ts'
import { deprecations, readSettings } from '../../contract/settings.ts'
import { unavailable, problemResponse } from '../http/problem.ts'
import { requestIdFrom } from '../http/request-id.ts'

/** Without PUBLIC_URL: Netlify's site URL (URL), else the origin the last request came to. */
let requestOrigin = 'http://localhost'

async function init(): Promise<Gateway> {
  // The 'netlify' defaults: TRUST_PROXY=netlify (every request comes through Netlify's
  // edge, which sets x-nf-client-connection-ip; there is no socket address here) and
  // STATE_STORE=netlify-blobs (instances share no disk).
  const settings = readSettings(process.env, 'netlify')
  const logger = createLogger(settings.LOG_LEVEL)
  for (const line of deprecations(process.env)) logger('warn', line)
  const root = settings.LAMBDA_TASK_ROOT ?? process.cwd()
  return createGateway(settings, {
    root: process.cwd(),
    logger,
    // A deploy's files never change under the function: each is checked when first read, not all at every cold start.
    dist: { dir: await findDist(settings.DIST_DIR, root), checkFiles: 'on-read' },
    origin: () => settings.URL ?? requestOrigin,
    // Without a build the content says 503; bad credential settings take only the credential routes down.
    resilient: true,
    // Instances come and go: the scheduled function sweeps the Blobs (oauth-sweep-scheduled.ts).
    sweep: false,
  })
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
  let gateway: Gateway
  try {
    gateway = await ready()
  } catch (error) {
    // A start that failed (a bad setting, say) is one line in the function's log, as it is for
    // `npm start`, and a 503 problem for the caller, which names nothing of the settings.
    report(error)
    const cannotStart = unavailable('The gateway cannot start; its log says why.', 30)
    return problemResponse(cannotStart, requestIdFrom(req.headers.get('x-request-id')), req.method)
  }
  return gateway.fetch(await originalRequest(req))
}
