/**
 * The one composition root: `createGateway(settings, platform)` wires the
 * whole gateway — the build it serves, its budgets, the credential routes and
 * /mcp, every route of the table — the same way for `npm start`
 * (serve.ts), `npm run dev` (dev-server.ts), the Netlify function
 * (netlify/gateway.ts) and every test. Two things configure it: the settings
 * (the one schema, contract/settings.ts, read by the entry point) and the
 * platform (what only the runtime knows: its folder, logger, clock).
 *
 * @example
 * const gateway = await createGateway(readSettings(process.env, 'start'), { root: '.', logger })
 * const running = await gateway.listen()
 */
import { resolve } from 'node:path'
import type { H3 } from 'h3'
import { API_VERSION, API_VERSION_HEADER } from '../contract/lifecycle.ts'
import { FIXED_SCOPES, scopeNames } from '../contract/scopes.ts'
import type { Settings } from '../contract/settings.ts'
import { createApp } from './app.ts'
import { ArtifactStore, type FileCheck } from './artifacts.ts'
import { createAuth, type Auth, type AuthRuntime } from './auth/auth.ts'
import { authHandlers, withoutAuth } from './auth/routes.ts'
import { checkSettings } from './config.ts'
import { Budgets } from './http/budgets.ts'
import { sharedLimiterBackend } from './http/shared-limits.ts'
import { openStateStore, storeHealth, storeSettingsFrom } from './auth/store/open-store.ts'
import type { RunningMetrics } from './http/metrics.ts'
import type { Logger } from './log.ts'
import { mcpHandler } from './mcp/handler.ts'
import { changesRoute } from './routes/changes.ts'
import { itemRoute, listRoute } from './routes/content.ts'
import { healthRoute, livenessRoute } from './routes/health.ts'
import { NOT_HERE, type RouteHandlers } from './routes/mount.ts'
import { searchRoute } from './routes/search.ts'
import { redirectsRoute } from './routes/redirects.ts'
import { tagRoute, tagsRoute } from './routes/tags.ts'
import { peopleRoute, personRoute } from './routes/people.ts'
import { startServer, type RunningServer } from './server.ts'
import type { Snapshot } from './snapshot.ts'
import { startWebhooks, type WebhookService } from './webhooks/service.ts'
import { startServeScheduler } from './schedule/start.ts'
import type { Scheduler } from './schedule/scheduler.ts'
import { webhookSettingsFrom } from './webhooks/settings.ts'
import { previewDirOf } from '../contract/preview.ts'
import { previewSource } from './preview/artifact.ts'
import { previewItemRoute, previewListRoute, previewSearchRoute, type PreviewDeps } from './preview/api-routes.ts'
import { shareLinks } from './preview/share-links.ts'
import { reviewRoute } from './preview/share-page.ts'
import { shareLinkRoute } from './preview/link-route.ts'
import { openAuditTrail } from './auth/audit/audit-trail.ts'
import type { StateStore } from './auth/store/state-store.ts'

export interface Platform {
  /** The gateway's folder: relative paths of the settings (DIST_DIR, KEYS_FILE, OAUTH_*) resolve against it. */
  root: string
  logger: Logger
  /** The build to serve instead of DIST_DIR's (the dev server's, over the compiler's output). */
  store?: ArtifactStore
  /** Where the build is when the platform knows better than DIST_DIR (a function bundle), and when its files are checked. */
  dist?: { dir: string; checkFiles: FileCheck }
  /** The public origin when PUBLIC_URL is unset and the gateway is not the one listening (a function: the site's, or the request's). */
  origin?: () => string
  /**
   * Answer whatever happens (a Netlify function instance): a build that
   * cannot be loaded, or credentials that cannot start (a bad OAUTH_*
   * setting), are logged and the gateway answers without them — 503 for
   * content, 404 for the credential routes — instead of failing to start.
   */
  resilient?: boolean
  /**
   * The clock (default the system's): what is "upcoming" (and
   * `when=upcoming|past` in lists, search and MCP), the budgets' windows,
   * when authorization state expires, and when a webhook retry is due
   * (signatures keep the wall clock).
   */
  now?: () => Date
  /** Sweep expired authorization state hourly (default); a Netlify function leaves it to the scheduled function. */
  sweep?: boolean
  /** How the embedded issuer fetches Client ID Metadata Documents (default global fetch). */
  fetch?: AuthRuntime['fetch']
  /** Routes of this runtime only, mounted before the build's files (the dev server's /preview/ and /admin/ backend). */
  routes?: readonly ((app: H3) => void)[]
  /**
   * A long-running gateway (`npm start`, `npm run dev`) sends each live
   * build's changes as webhooks once it listens (gateway/webhooks/); the
   * Netlify functions run the same passes on their own schedule.
   */
  webhooks?: boolean
  /**
   * A long-running gateway serving a project's dist/ (`npm start`) builds it
   * again at the build's next release or expiry and swaps the new build in,
   * without a restart, once it listens (gateway/schedule/). `npm run dev`'s
   * compiler releases on its own; Netlify calls the build hook from a
   * scheduled function (netlify/publish-scheduled.ts).
   */
  schedule?: boolean
}

export interface Gateway {
  readonly app: H3
  readonly store: ArtifactStore
  readonly settings: Settings
  /** The credential guard (and the embedded issuer), unless credentials failed on a resilient platform. */
  readonly auth: Auth | undefined
  /** The origin clients use: PUBLIC_URL, else the platform's, else the address listened on. */
  publicUrl(): string
  /** Answer a web request (the Netlify function). */
  fetch(request: Request): Promise<Response>
  /** Listen on HOST:PORT with Node's server and the fast path for repeated reads (server.ts); the webhooks start then. */
  listen(): Promise<RunningServer>
  /** The webhook service, once listening on a platform that sends them. */
  readonly webhooks: WebhookService | undefined
  /** The metrics server, once listening with METRICS_PORT set. */
  readonly metrics: RunningMetrics | undefined
  /**
   * Load DIST_DIR again (SIGHUP), send the new build's changes and wait for its
   * next release; the previous build stays served if it fails.
   */
  reload(): Promise<Snapshot>
  /** Stop listening and sending. */
  close(): Promise<void>
}

export async function createGateway(settings: Settings, platform: Platform): Promise<Gateway> {
  checkSettings(settings)
  const log = platform.logger
  const store = platform.store ?? (await openStore(settings, platform))
  const host = settings.HOST.includes(':') ? `[${settings.HOST}]` : settings.HOST
  // Without PUBLIC_URL: the platform's origin, else the address listened on (exact once listening).
  let listening = `http://${host}:${settings.PORT}`
  const publicUrl = () => settings.PUBLIC_URL ?? platform.origin?.() ?? listening
  const clock = platform.now && (() => platform.now!().getTime())
  const now = platform.now ?? (() => new Date())
  const auth = await startAuth(settings, platform, publicUrl, clock, store)
  const stateStore = storeSettingsFrom(settings, platform.root)
  // The reviewers' preview: beside the build served (contract/preview.ts), and the share links in the state store.
  const preview = previewSource(
    () => previewDirOf(platform.dist?.dir ?? resolve(platform.root, settings.DIST_DIR)),
    log,
  )
  let linkStore: StateStore | undefined
  const openLinkStore = () => (linkStore ??= openStateStore(stateStore, clock))
  const links = shareLinks(openLinkStore, now)
  const previewDeps: PreviewDeps | undefined = auth && { store, source: preview, guard: auth, now }
  const handlers: RouteHandlers = {
    health: healthRoute(store, storeHealth(stateStore)),
    liveness: livenessRoute(),
    search: searchRoute(store, now),
    changes: changesRoute(store, now),
    list: listRoute(store, now),
    item: itemRoute(store, now),
    tags: tagsRoute(store, now),
    tag: tagRoute(store, now),
    people: peopleRoute(store, now),
    person: personRoute(store, now),
    redirects: redirectsRoute(store, now),
    previewList: previewDeps ? previewListRoute(previewDeps) : NOT_HERE,
    previewItem: previewDeps ? previewItemRoute(previewDeps) : NOT_HERE,
    previewSearch: previewDeps ? previewSearchRoute(previewDeps) : NOT_HERE,
    review: reviewRoute({ store, source: preview, links }),
    previewShareLink: auth
      ? shareLinkRoute({
          store,
          source: preview,
          guard: auth,
          links,
          publicUrl,
          now,
          audit: (by) => openAuditTrail(openLinkStore(), { via: 'gateway', by }, now),
          log,
        })
      : NOT_HERE,
    ...(auth ? authHandlers(auth) : withoutAuth()),
    mcp:
      auth || settings.MCP_AUTH === 'off'
        ? mcpHandler({
            store,
            auth: settings.MCP_AUTH === 'off' ? undefined : auth,
            publicUrl,
            allowedOrigins: settings.MCP_ALLOWED_ORIGINS,
            maxBodyBytes: settings.MCP_MAX_BODY_BYTES,
            logger: log,
            now,
            preview,
          })
        : NOT_HERE,
  }
  const budgets = new Budgets(settings, clock, sharedLimiterBackend(stateStore, 'open'))
  const app = createApp({ settings, store, logger: log, budgets, handlers, extraRoutes: platform.routes ?? [], now })
  let running: RunningServer | undefined
  let metrics: RunningMetrics | undefined
  let webhooks: WebhookService | undefined
  let scheduler: Scheduler | undefined
  return {
    app,
    store,
    settings,
    auth,
    publicUrl,
    fetch: (request) => Promise.resolve(app.fetch(request)).then(withApiVersion),
    async listen() {
      if (settings.METRICS_PORT !== undefined) {
        const measured = openStateStore(stateStore)
        const { startMetrics } = await import('./http/metrics.ts')
        metrics = await startMetrics({ host: settings.HOST, port: settings.METRICS_PORT, store: () => measured })
        log('info', 'metrics served', { url: metrics.url })
      }
      running = await startServer({ app, store, logger: log, settings, now, observe: metrics?.observe })
      listening = running.url
      // Events name the public origin, known exactly once listening.
      if (platform.webhooks)
        webhooks = startWebhooks(webhookSettingsFrom(settings, platform.root), store, {
          logger: log,
          publicUrl,
          now: clock,
        })
      // Scheduled items are released (and expired ones taken down) at their time, without a restart.
      if (platform.schedule)
        scheduler = await startServeScheduler({
          store,
          log,
          frozen: settings.BUILD_TIME !== undefined,
          packageRoot: platform.root,
          origin: publicUrl,
          onSwap: () => webhooks?.kick(),
        })
      return running
    },
    get webhooks() {
      return webhooks
    },
    get metrics() {
      return metrics
    },
    async reload() {
      const snapshot = await store.reload()
      webhooks?.kick()
      scheduler?.arm()
      return snapshot
    },
    async close() {
      scheduler?.close()
      await Promise.all([running?.close(), webhooks?.close(), metrics?.close()])
    },
  }
}

/** Every answer names the API's version (the Node server sets it in server.ts); a response with immutable headers is copied. */
function withApiVersion(response: Response): Response {
  if (response.headers.has(API_VERSION_HEADER)) return response
  try {
    response.headers.set(API_VERSION_HEADER, API_VERSION)
    return response
  } catch {
    const copy = new Response(response.body, response)
    copy.headers.set(API_VERSION_HEADER, API_VERSION)
    return copy
  }
}

/** DIST_DIR's build (or the platform's), loaded; a resilient platform answers 503 while there is none. */
async function openStore(settings: Settings, platform: Platform): Promise<ArtifactStore> {
  const store = new ArtifactStore(platform.dist?.dir ?? resolve(platform.root, settings.DIST_DIR), {
    cacheMb: settings.FILE_CACHE_MB,
    checkFiles: platform.dist?.checkFiles,
  })
  await store.reload().catch((error: Error) => {
    if (!platform.resilient) throw error
    platform.logger('error', 'no build loaded', { error: error.message })
  })
  return store
}

/** The credential guard and the issuer; undefined when they failed on a resilient platform. */
async function startAuth(
  settings: Settings,
  platform: Platform,
  publicUrl: () => string,
  now: (() => number) | undefined,
  store: ArtifactStore,
): Promise<Auth | undefined> {
  try {
    return await createAuth(settings, {
      root: platform.root,
      publicUrl,
      // The collections' scopes are the build's (its manifest's model), as served now.
      scopes: () => {
        const model = store.current()?.model
        return model ? scopeNames(model) : FIXED_SCOPES
      },
      logger: platform.logger,
      ...(platform.fetch ? { fetch: platform.fetch } : {}),
      ...(now ? { now } : {}),
      sweep: platform.sweep ?? true,
    })
  } catch (error) {
    if (!platform.resilient) throw error
    // Bad credential settings must not take the content down with them.
    platform.logger('error', 'credentials and /mcp are off: their settings failed', {
      error: (error as Error).message,
    })
    return undefined
  }
}
