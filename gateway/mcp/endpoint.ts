/**
 * One MCP endpoint for both protocol eras, stateless either way:
 *
 * - 2026-07-28 requests (no handshake; protocol version, client info and
 *   capabilities in each request's `_meta`) go to the SDK's createMcpHandler,
 *   which also answers `server/discover`, fills the cache fields and checks
 *   the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers against the
 *   body (400 with JSON-RPC -32020 HeaderMismatch when they disagree).
 * - 2025-era requests (the initialize handshake, or any request without the
 *   `_meta` envelope) go to a stateless Streamable HTTP transport that answers
 *   JSON, as /mcp always has. The SDK's own legacy leg would answer SSE.
 *
 * The era is decided by the SDK's own classifier (isLegacyRequest), so the
 * routing cannot disagree with the handler. Both legs take a server from the
 * caller's source (server-pool.ts), for this request's build, and give it
 * back once the answer is made.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  ProtocolError,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from '@modelcontextprotocol/server'
import type { Logger } from '../log.ts'
import type { ServerSource } from './server-pool.ts'

/** Serves one request (its body already read and parsed, or undefined when it is not JSON) with a server from `servers`. */
export type McpEndpoint = (request: Request, parsedBody: unknown, servers: ServerSource) => Promise<Response>

const LISTEN = 'subscriptions/listen'

export function createMcpEndpoint(options: { maxBodyBytes: number; logger: Logger }): McpEndpoint {
  const { maxBodyBytes, logger } = options
  // createMcpHandler is built once and asks for a server per request (if the request gets that far); the request's
  // lease, found by its Request, says where to take it from and keeps it to give back.
  const leases = new WeakMap<Request, { servers: ServerSource; server?: McpServer }>()
  const modern = createMcpHandler(
    ({ requestInfo }) => {
      const lease = requestInfo && leases.get(requestInfo)
      if (!lease) throw new Error('no MCP server source was registered for this request')
      lease.server = lease.servers.take('modern')
      return lease.server
    },
    { legacy: 'reject', maxRequestBodySize: maxBodyBytes, onerror: (error) => report(logger, error) },
  )

  return async (request, parsedBody, servers) => {
    if (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: maxBodyBytes }))
      return serveLegacy(request, parsedBody, servers)
    if (methodOf(parsedBody) === LISTEN) return listenNotOffered(parsedBody)
    const lease: { servers: ServerSource; server?: McpServer } = { servers }
    leases.set(request, lease)
    try {
      return await modern.fetch(request, parsedBody === undefined ? undefined : { parsedBody })
    } finally {
      if (lease.server) servers.give('modern', lease.server)
    }
  }
}

/** A 2025-era request: the stateless idiom (no session id) with JSON answers, on a server no other request holds meanwhile. */
async function serveLegacy(request: Request, parsedBody: unknown, servers: ServerSource): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  const server = servers.take('legacy')
  try {
    await server.connect(transport)
    return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody })
  } finally {
    await server.close()
    servers.give('legacy', server)
  }
}

/**
 * subscriptions/listen: a stream that would never carry anything. No list changes while a build is served, so the
 * server declares no listChanged and no subscribe, and (being stateless, possibly a short-lived function) holds no
 * stream open for nothing. The revision's answer for a method a server does not implement: 404 with -32601.
 */
function listenNotOffered(body: unknown): Response {
  const id = (body as { id?: unknown }).id
  return Response.json(
    {
      jsonrpc: '2.0',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: {
        code: -32601,
        message: `Method not found: ${LISTEN}. This server sends no change notifications; its lists carry ttlMs instead.`,
      },
    },
    { status: 404 },
  )
}

function methodOf(body: unknown): unknown {
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as { method?: unknown }).method
    : undefined
}

/** The SDK reports refused requests (the caller's mistake) and failures (ours) through one callback. */
function report(logger: Logger, error: Error): void {
  const refused = error instanceof ProtocolError || /^(Rejected |Unsupported Media Type)/.test(error.message)
  logger(refused ? 'debug' : 'error', refused ? 'mcp request refused' : 'mcp request failed', { error: error.message })
}
