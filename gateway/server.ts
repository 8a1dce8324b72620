/**
 * The gateway on Node's http server (Gateway.listen): header-size and time
 * limits, graceful close, the fast path for repeated reads, and a lingering
 * close for requests answered before their body was read.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { H3 } from 'h3'
import { toNodeHandler } from 'h3/node'
import { MAX_HEADER_BYTES } from '../contract/headers.ts'
import type { Settings } from '../contract/settings.ts'
import { AppError } from '../contract/errors.ts'
import { API_VERSION, API_VERSION_HEADER } from '../contract/lifecycle.ts'
import type { ArtifactStore } from './artifacts.ts'
import { answerClientError } from './http/client-error.ts'
import { fastReads } from './http/fast-reads.ts'
import { answerHostDefect, hostDefect } from './http/host-header.ts'
import { drainBeforeClose, trackRequests } from './http/lingering-close.ts'
import type { Logger } from './log.ts'
import type { Observe } from './http/metrics.ts'

export interface RunningServer {
  url: string
  server: Server
  close(): Promise<void>
}

/** The whole request, and its headers, must arrive within these (RELIABILITY.md); past them: 408. */
export const RECEIVE_TIMEOUT_MS = 30_000
export const HEADERS_TIMEOUT_MS = 10_000

export class PortInUseError extends AppError {
  readonly code = 'PORT_IN_USE'
}

export async function startServer(options: {
  app: H3
  store: ArtifactStore
  logger: Logger
  settings: Settings
  /** The clock of the answers that depend on it (`when=`); default the system's. */
  now?: () => Date
  /** Told of every request as it arrives (the metrics, when they are on). */
  observe?: Observe | undefined
}): Promise<RunningServer> {
  const { HOST: host, PORT: port, TRUST_PROXY } = options.settings
  const appHandler = toNodeHandler(options.app)
  // Reads the app has answered before in this build go straight to the socket (http/fast-reads.ts).
  const clock = options.now ?? (() => new Date())
  const fast = fastReads(options.store, options.logger, TRUST_PROXY, () => clock().getTime())
  const toApp = (req: IncomingMessage, res: ServerResponse) => {
    // Every answer names the API's version: the app's own answers carry it already, this covers the rest (MCP, OAuth, h3's).
    res.setHeader(API_VERSION_HEADER, API_VERSION)
    void appHandler(req, res)
  }
  const { observe } = options
  const handler = trackRequests((req: IncomingMessage, res: ServerResponse) => {
    observe?.(req, res, performance.now())
    const badHost = hostDefect(req)
    if (badHost) {
      answerHostDefect(req, res, badHost)
      return
    }
    const answered = fast(req, res)
    if (answered === true) return
    if (answered === false) toApp(req, res)
    else
      void answered.then(
        (done) => done || toApp(req, res),
        () => toApp(req, res),
      )
  })
  // An idle connection lives longer than any client or proxy keeps one (undici 4 s, nginx and
  // load balancers 60 s): closed first by the server, a reused connection races the close and
  // the request is reset (seen under load with a shorter timeout).
  // Node enforces the two timeouts only when it sweeps its connections, by default far apart: swept often,
  // a slow client is answered 408 at its timeout, as documented, rather than long after it.
  // Host is checked by the handler (http/host-header.ts), which answers a problem body where Node has none.
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      requestTimeout: RECEIVE_TIMEOUT_MS,
      headersTimeout: HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: 500,
      keepAliveTimeout: 65_000,
      requireHostHeader: false,
    },
    handler,
  )
  // A request answered before its body was read (a 413) is closed only once the client has sent it (http/lingering-close.ts).
  server.on('connection', drainBeforeClose)
  // Oversized headers (431), malformed requests (400): problem+json, not Node's bare status line.
  server.on('clientError', answerClientError)
  // An Expect other than 100-continue: answer the request as if it were absent (RFC 9110 §10.1.1 allows
  // either), instead of Node's bodiless 417.
  server.on('checkExpectation', handler)
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new PortInUseError(`port ${port} on ${host} is already in use; set PORT to another port`)
          : error,
      ),
    )
    server.listen(port, host, () => resolveListen())
  })
  const address = server.address() as AddressInfo
  const shown = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shown}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done())
        server.closeIdleConnections()
        setTimeout(() => server.closeAllConnections(), 5_000).unref()
      }),
  }
}
