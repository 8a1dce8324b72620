/**
 * Run the gateway on Node's http server: header-size and time limits,
 * graceful close, and the fast path for repeated reads. Used by the CLI (serve.ts) and by tests, which start it on
 * an ephemeral port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeHandler } from 'h3/node'
import { createApp, type GatewayOptions } from './app.ts'
import { answerClientError } from './http/client-error.ts'
import { fastReads } from './http/fast-reads.ts'
import { silentLogger } from './log.ts'
import { AppError } from '../contract/errors.ts'

export const MAX_HEADER_BYTES = 16 * 1024

export interface RunningServer {
  url: string
  server: Server
  close(): Promise<void>
}

export interface ListenOptions extends GatewayOptions {
  host: string
  port: number
}

export class PortInUseError extends AppError {
  readonly code = 'PORT_IN_USE'
}

export async function startServer(options: ListenOptions): Promise<RunningServer> {
  const app = createApp(options)
  const appHandler = toNodeHandler(app)
  // Reads the app has answered before in this build go straight to the socket (http/fast-reads.ts).
  const fast = fastReads(options.store, options.logger ?? silentLogger)
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (!fast(req, res)) void appHandler(req, res)
  }
  // An idle connection lives longer than any client or proxy keeps one (undici 4 s, nginx and
  // load balancers 60 s): closed first by the server, a reused connection races the close and
  // the request is reset (seen under load with a 5 s timeout).
  const server = createServer(
    { maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 65_000 },
    handler,
  )
  // Oversized headers (431), malformed requests (400): problem+json, not Node's bare status line.
  server.on('clientError', answerClientError)
  // An Expect other than 100-continue: answer the request as if it were absent (RFC 9110 §10.1.1 allows
  // either), instead of Node's bodiless 417.
  server.on('checkExpectation', handler)
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new PortInUseError(`port ${options.port} on ${options.host} is already in use; set PORT to another port`)
          : error,
      ),
    )
    server.listen(options.port, options.host, () => resolveListen())
  })
  const { port } = server.address() as AddressInfo
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done())
        server.closeIdleConnections()
        setTimeout(() => server.closeAllConnections(), 5_000).unref()
      }),
  }
}
