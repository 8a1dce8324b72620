/**
 * Build answers for stored or rendered bodies: strong ETag, 304 on a
 * matching If-None-Match, HEAD without a body.
 */
import type { H3Event } from 'h3'
import { FastResponse } from 'srvx'
import type { StoredFile } from '../artifacts.ts'
import { baseHeaderRecord } from '../../build/contract/headers.ts'
import { requestIdOf } from './request-id.ts'

export interface RespondOptions {
  contentType: string
  cacheControl: string
  status?: number
  headers?: Record<string, string>
}

export function respondWithFile(event: H3Event, file: StoredFile, options: RespondOptions): Response {
  const headers = baseHeaderRecord(requestIdOf(event), options.contentType, options.cacheControl)
  headers.etag = file.etag
  if (options.headers) Object.assign(headers, lowerCaseKeys(options.headers))
  if (matchesEtag(event.req.headers.get('if-none-match'), file.etag)) {
    delete headers['content-type']
    return new FastResponse(null, { status: 304, headers })
  }
  headers['content-length'] = String(file.body.byteLength)
  // srvx's FastResponse (what h3 itself answers with) writes the bytes and the plain
  // header object straight to the socket; a web Response would build a Headers
  // instance and stream the body through a ReadableStream, costing more than the rest.
  const body = event.req.method === 'HEAD' ? null : (file.body as Uint8Array<ArrayBuffer>)
  return new FastResponse(body, { status: options.status ?? 200, headers })
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v
  return out
}

/** RFC 9110 If-None-Match: `*` or a list of (weak or strong) tags, compared weakly. */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}
