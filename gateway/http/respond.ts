/**
 * Build answers for stored or rendered bodies: strong ETag, 304 on a
 * matching If-None-Match, HEAD without a body.
 */
import type { H3Event } from 'h3'
import type { StoredFile } from '../artifacts.ts'
import { baseHeaders } from './headers.ts'
import { requestIdOf } from './request-id.ts'

export interface RespondOptions {
  contentType: string
  cacheControl: string
  status?: number
  headers?: Record<string, string>
}

export function respondWithFile(event: H3Event, file: StoredFile, options: RespondOptions): Response {
  const headers = baseHeaders(requestIdOf(event), options.contentType, options.cacheControl)
  headers.set('etag', file.etag)
  if (options.headers) for (const [k, v] of Object.entries(options.headers)) headers.set(k, v)
  if (matchesEtag(event.req.headers.get('if-none-match'), file.etag)) {
    headers.delete('content-type')
    return new Response(null, { status: 304, headers })
  }
  headers.set('content-length', String(file.body.byteLength))
  const body = event.req.method === 'HEAD' ? null : (file.body as Uint8Array<ArrayBuffer>)
  return new Response(body, { status: options.status ?? 200, headers })
}

/** RFC 9110 If-None-Match: `*` or a list of (weak or strong) tags, compared weakly. */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}
