/**
 * The one body limit, for every route of the table that reads a body
 * (contract/routes/, `body`): a body of another media type is a 415 problem,
 * a larger one a 413 problem, both before any handler or library sees it.
 * The body is read here, counting bytes as they arrive, and the route gets
 * the buffered bytes: whoever reads it later (our code or a library) sees the
 * same body, never a half-read stream. What a refused client is still sending
 * is read and dropped after the 413 (server.ts, lingering close), so it gets
 * the answer instead of a reset connection.
 */
import { HTTPError, type H3Event, type Middleware } from 'h3'
import type { RequestBody } from '../../contract/routes/route.ts'
import { problem } from './problem.ts'

const READ_METHODS = new Set(['arrayBuffer', 'blob', 'bytes', 'formData', 'json', 'text'])
const NO_BODY = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE'])

/** The body limit of a route: its media types, and `limit` bytes at most. */
export function bodyLimit(body: RequestBody, limit: number): Middleware {
  return async (event, next) => {
    const req = event.req
    if (NO_BODY.has(req.method) || !hasBody(req)) return next()
    // A declared size over the limit is refused before anything else is looked at.
    const declared = req.headers.get('content-length')
    if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) throw tooLarge(limit)
    const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    if (!body.types.includes(type)) {
      throw problem('unsupported-media-type', {
        detail: `The request body must be ${body.types.join(' or ')}${type ? `, not ${type.slice(0, 100)}` : ' (no Content-Type was sent)'}.`,
        headers: { accept: body.types.join(', ') },
      })
    }
    const bytes = await readCapped(req.body!, limit).catch((error: unknown) => {
      if (HTTPError.isError(error)) throw error
      // The client broke the framing or hung up mid-body: its fault, never a 500.
      throw problem('bad-request', {
        detail: 'The request body could not be read (connection closed or malformed chunked encoding).',
      })
    })
    setRequest(event, buffered(req, bytes))
    return next()
  }
}

/** A body is coming: a non-zero Content-Length, or chunks (HTTP/1.1 has no other framing). */
function hasBody(req: Request): boolean {
  const declared = req.headers.get('content-length')
  return req.body !== null && (declared === null ? req.headers.has('transfer-encoding') : declared !== '0')
}

function tooLarge(limit: number) {
  return problem('payload-too-large', {
    detail: `The request body is larger than ${limit} bytes, the most this endpoint accepts.`,
    headers: { connection: 'close' },
  })
}

/** Read a stream to its end, failing as soon as it passes `limit` bytes. */
export async function readCapped(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      // Stop reading but leave the stream alone: cancelling it resets the socket
      // before the 413 goes out. The server reads and drops the rest (lingering
      // close), and `connection: close` ends the connection after it.
      if (size > limit) throw tooLarge(limit)
      chunks.push(value)
    }
  } catch (error) {
    reader.releaseLock()
    throw error
  }
  // A stream read to its end keeps its reader: releasing the lock makes Node create and format
  // two TypeErrors, and where stack traces are source-mapped (source-map-support in Netlify's
  // emulation) the first one parses the bundle's whole source map, on every cold start.
  const out = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

/** The same request, its body served from memory (re-readable, so a retrying reader cannot hang). */
function buffered<T extends Request>(req: T, bytes: Uint8Array<ArrayBuffer>): T {
  const fresh = () => new Response(bytes)
  return new Proxy(req, {
    get(target, prop) {
      if (prop === 'body') return fresh().body
      if (prop === 'bodyUsed') return false
      if (typeof prop === 'string' && READ_METHODS.has(prop))
        return () => (fresh() as unknown as Record<string, () => unknown>)[prop]!()
      if (prop === 'clone') return () => buffered(target, bytes)
      if (prop === '_request')
        return new Request(target.url, { method: target.method, headers: target.headers, body: bytes })
      const value = Reflect.get(target, prop, target) as unknown
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
}

function setRequest(event: H3Event, req: H3Event['req']): void {
  // h3 types `req` as read-only, but replacing it is how h3's own bodyLimit works.
  ;(event as unknown as { req: H3Event['req'] }).req = req
}
