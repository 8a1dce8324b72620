/**
 * oidc-provider is a Koa app: it wants Node's IncomingMessage and
 * ServerResponse. The gateway is web-standard (h3 v2 on Node, a Request in
 * the Netlify Function), so both runtimes hand the provider the same thing:
 * a Request rebuilt for it, run through srvx's in-memory Node pair
 * (`fetchNodeHandler`, the adapter h3 itself is built on), and the
 * Response that comes back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { fetchNodeHandler } from 'srvx/node'

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown

/** Proxy headers a caller might send; the provider must see only the ones we set. */
const FORWARDED = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-forwarded-port',
  'x-real-ip',
]

export interface ForwardOptions {
  /** The issuer's origin: the provider builds every URL it answers with from it. */
  publicUrl: string
  /** The client address as the gateway determined it (TRUST_PROXY). */
  clientAddress: string
  /** The body, already read within the endpoint's cap. */
  body?: Uint8Array | undefined
}

/** The request as the provider sees it: at the public origin, from the client's address. */
export function forwardedRequest(request: Request, options: ForwardOptions): Request {
  const original = new URL(request.url)
  const url = new URL(original.pathname + original.search, options.publicUrl)
  const headers = new Headers(request.headers)
  for (const name of FORWARDED) headers.delete(name)
  headers.set('x-forwarded-host', url.host)
  headers.set('x-forwarded-proto', url.protocol.slice(0, -1))
  headers.set('x-forwarded-for', options.clientAddress)
  headers.delete('content-length')
  headers.delete('transfer-encoding')
  const body = options.body && options.body.byteLength > 0 ? options.body : undefined
  if (body) headers.set('content-length', String(body.byteLength))
  return new Request(url, { method: request.method, headers, body: body as BodyInit | undefined })
}

/** Run a Node request handler on a web Request; its answer comes back as a Response. */
export function runNodeHandler(handler: NodeHandler, request: Request): Promise<Response> {
  return fetchNodeHandler(handler as Parameters<typeof fetchNodeHandler>[0], request)
}

/**
 * Call `work` with the Node pair for `request` and return what it returns:
 * for provider methods that read the request (its cookies) but answer
 * nothing themselves, such as `interactionDetails`.
 */
export async function withNodeRequest<T>(
  request: Request,
  work: (req: IncomingMessage, res: ServerResponse) => Promise<T>,
): Promise<T> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined
  await runNodeHandler(async (req, res) => {
    try {
      outcome = { ok: true, value: await work(req, res) }
    } catch (error) {
      outcome = { ok: false, error }
    }
    if (!res.writableEnded) res.end()
  }, request)
  if (!outcome) throw new Error('the request handler did not run')
  if (!outcome.ok) throw outcome.error
  return outcome.value
}
