/**
 * POST /mcp: the MCP Streamable HTTP endpoint, stateless, for protocol
 * revision 2026-07-28 and 2025-era clients alike (endpoint.ts). Each request
 * is answered by an McpServer of the current snapshot that no other request
 * holds meanwhile (server-pool.ts), as JSON. Before
 * the SDK sees anything: method (POST only), budget and body size (the route
 * table's, checked where it is mounted), Host/Origin (DNS rebinding),
 * credential (mcp.tools.invoke), and a batch's other messages against the
 * budget (batches.ts). The SDK and the tools are
 * loaded by the first request that gets that far: a process, or a Netlify
 * Function instance, that answers only content never evaluates them.
 */
import { defineHandler, type H3Event } from 'h3'
import type { ArtifactStore } from '../artifacts.ts'
import type { Guard } from '../auth/guard.ts'
import { baseHeaderRecord, CACHE } from '../../contract/headers.ts'
import { FastResponse } from 'srvx'
import { problem, unavailable } from '../http/problem.ts'
import { requestIdOf } from '../http/request-id.ts'
import { silentLogger, type Logger } from '../log.ts'
import { loadOnce } from '../load-once.ts'
import { createOriginGuard, isLoopbackRequest } from './origin-guard.ts'
import { envelopeProblem } from '../../contract/json-rpc.ts'
import { admitBatch } from './batches.ts'
import { PREVIEW_SCOPE } from '../../contract/preview.ts'
import type { PreviewSource } from '../preview/artifact.ts'

export const MCP_SCOPE = 'mcp.tools.invoke'

/** The credential guard (gateway/auth): throws the 401/403/503 answer unless the credential grants the scope. */
export type McpAuth = Pick<Guard, 'requireScope'>

export interface McpOptions {
  store: ArtifactStore
  /** The guard; `undefined` only with MCP_AUTH=off, which the config allows on loopback hosts alone. */
  auth: McpAuth | undefined
  /** This gateway's public origin, for the Host/Origin check (see origin-guard.ts). */
  publicUrl?: string | (() => string | undefined)
  allowedOrigins?: readonly string[]
  /** The most bytes a body may have (MCP_MAX_BODY_BYTES; the gateway's body limit enforces it first). */
  maxBodyBytes: number
  /** Clock for "upcoming"; tests pin it. */
  now?: () => Date
  /** Where refused and failed MCP requests are reported (refusals at debug level). */
  logger?: Logger
  /** The reviewers' preview, for the tools' `include_drafts` (gateway/preview/artifact.ts). */
  preview?: PreviewSource
}

export function mcpHandler(options: McpOptions) {
  const checkOrigin = createOriginGuard({ publicUrl: options.publicUrl, allowedOrigins: options.allowedOrigins })
  const load = loadOnce(async () => {
    const [{ createMcpEndpoint }, { serversFor }, { inMcpRequest }] = await Promise.all([
      import('./endpoint.ts'),
      import('./server-pool.ts'),
      import('./request-scope.ts'),
    ])
    const endpoint = createMcpEndpoint({ maxBodyBytes: options.maxBodyBytes, logger: options.logger ?? silentLogger })
    return { endpoint, serversFor, inMcpRequest }
  })
  return defineHandler(async (event) => {
    const verdict = checkOrigin(event.req.headers)
    if (!verdict.ok) throw problem('forbidden', { detail: verdict.reason })
    const principal = options.auth ? await options.auth.requireScope(event, MCP_SCOPE) : undefined
    // Without the guard, answer only requests addressed to loopback: even a runtime whose
    // listen address says nothing (a serverless function) cannot serve /mcp openly.
    if (!options.auth && !isLoopbackRequest(event.req.headers)) {
      throw problem('forbidden', {
        detail: 'This gateway runs with MCP_AUTH=off, so /mcp answers requests to a loopback address only.',
      })
    }

    // The gateway's body limit has read the body (415 and 413 as problems): this is the buffered copy.
    const body = { text: await event.req.text() }
    const snapshot = options.store.current()
    if (!snapshot) throw unavailable()

    // The body is already read (and bounded); hand the SDK a request carrying it, and the parsed value when it is JSON.
    const headers = new Headers(event.req.headers)
    headers.delete('content-length')
    const request = new Request(event.req.url, { method: 'POST', headers, body: body.text })
    const parsed = parseJson(body.text)
    const refused = (Array.isArray(parsed) ? parsed : [parsed]).map(envelopeProblem).find(Boolean)
    if (refused) return withGatewayHeaders(event, invalidRequest(refused))
    // A batch draws one call per message (2025-03-26), or is refused (every other revision): batches.ts.
    const batch = await admitBatch(event, parsed)
    if (batch) return withGatewayHeaders(event, batch)
    const { endpoint, serversFor, inMcpRequest } = await load()
    const { preview } = options
    // Drafts only for a credential that has the preview scope too (never with MCP_AUTH=off: no credential).
    const drafts = preview && {
      allowed: principal?.scopes.includes(PREVIEW_SCOPE) ?? false,
      preview: () => preview.of(snapshot),
    }
    const now = options.now ?? (() => new Date())
    // What the tools read of this request (request-scope.ts): the server itself is shared with the build's other requests.
    const answer = await inMcpRequest({ now, ...(drafts && { drafts }) }, () =>
      endpoint(request, parsed, serversFor(snapshot, now().getTime())),
    )
    return withGatewayHeaders(event, answer)
  })
}

/** JSON-RPC -32600 for a message outside the envelope bounds openapi.json states (contract/json-rpc.ts). */
function invalidRequest(reason: string): Response {
  return Response.json(
    { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: ${reason}` } },
    { status: 400 },
  )
}

/** The parsed body, or undefined when it is not JSON (the SDK then answers the JSON-RPC parse error). */
function parseJson(text: string): unknown {
  try {
    return text.length === 0 ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}

/** The SDK's answer with the headers every gateway answer carries (request id, no-store, nosniff). */
async function withGatewayHeaders(event: H3Event, response: Response): Promise<Response> {
  const headers = baseHeaderRecord(
    requestIdOf(event),
    response.headers.get('content-type') ?? 'application/json',
    CACHE.none,
  )
  for (const [name, value] of response.headers) if (name !== 'content-type') headers[name] = value
  if (response.status === 202 || response.body === null) delete headers['content-type']
  const body = response.body === null ? null : Buffer.from(await response.arrayBuffer())
  if (body) headers['content-length'] = String(body.byteLength)
  // Written straight to the socket (srvx's FastResponse), not streamed through a web ReadableStream.
  return new FastResponse(body as Uint8Array<ArrayBuffer> | null, { status: response.status, headers })
}
