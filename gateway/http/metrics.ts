/**
 * Prometheus metrics (prom-client, loaded only when they are on), off unless METRICS_PORT is set: then
 * `GET /metrics` on that port of HOST, apart from the public port, so the
 * metrics of every gateway behind a load balancer can be scraped one by one
 * and never reach the internet through it.
 *
 * - `http_requests_total` and `http_request_duration_seconds`, by method,
 *   route (the route table's id, `other` for any other path: never the raw
 *   path, which anyone can make up) and status;
 * - `state_store_errors_total` (a store that could not be used) and
 *   `state_store_reconnects_total` (a lost Redis connection tried again);
 * - `webhook_queue_depth`: messages waiting for delivery, read from the
 *   state store at each scrape;
 * - Node's own (`process_*`, `nodejs_*`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import client from 'prom-client'
import { ROUTES } from '../../contract/routes/index.ts'
import { pathPattern } from '../../contract/routes/index.ts'
import type { Route } from '../../contract/routes/route.ts'
import { storeSignals } from '../auth/store/store-errors.ts'
import type { StateStore } from '../auth/store/state-store.ts'
import { QUEUE_ROOT } from '../webhooks/queue.ts'

/** Told of each answer the server sends (server.ts). */
export type Observe = (req: IncomingMessage, res: ServerResponse, startedAt: number) => void

export interface RunningMetrics {
  url: string
  observe: Observe
  close(): Promise<void>
}

/** Route ids by their paths' patterns, those without a parameter first (`/api/health/live` before `/api/{collection}/{slug}`). */
const PATTERNS = (Object.entries(ROUTES) as [string, Route][])
  .map(([id, route]) => ({ id, pattern: pathPattern(route), fixed: !route.path.includes('{') }))
  .sort((a, b) => Number(b.fixed) - Number(a.fixed))

export function routeLabel(url: string | undefined): string {
  const path = (url ?? '/').split('?', 1)[0]!
  return PATTERNS.find(({ pattern }) => pattern.test(path))?.id ?? 'other'
}

export async function startMetrics(options: {
  host: string
  port: number
  /** The state store whose webhook queue is measured; none where credentials are off. */
  store?: () => StateStore | undefined
}): Promise<RunningMetrics> {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry })
  const requests = new client.Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const durations = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request arriving to its answer sent, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  const faults = new client.Counter({
    name: 'state_store_errors_total',
    help: 'Times the state store could not be used (unreachable, full, refusing writes).',
    registers: [registry],
  })
  const reconnects = new client.Counter({
    name: 'state_store_reconnects_total',
    help: 'Times a lost connection to the state store (Redis) was tried again.',
    registers: [registry],
  })
  new client.Gauge({
    name: 'webhook_queue_depth',
    help: 'Webhook messages waiting for delivery, every subscription together (-1: the store cannot be read).',
    registers: [registry],
    async collect() {
      const store = options.store?.()
      if (!store) return this.set(0)
      this.set(
        await store.list(QUEUE_ROOT).then(
          (keys) => keys.length,
          () => -1,
        ),
      )
    },
  })
  const onFault = () => faults.inc()
  const onReconnect = () => reconnects.inc()
  storeSignals.on('fault', onFault)
  storeSignals.on('reconnect', onReconnect)

  const server = createServer((req, res) => {
    if (req.url?.split('?', 1)[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n')
      return
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(req.method === 'HEAD' ? '' : text),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${error.message}\n`),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    url: `http://${host}:${port}/metrics`,
    observe(req, res, startedAt) {
      res.once('finish', () => {
        const labels = { method: req.method ?? 'GET', route: routeLabel(req.url), status: String(res.statusCode) }
        requests.inc(labels)
        durations.observe(labels, (performance.now() - startedAt) / 1000)
      })
    },
    close: () =>
      new Promise((resolve) => {
        storeSignals.off('fault', onFault)
        storeSignals.off('reconnect', onReconnect)
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
