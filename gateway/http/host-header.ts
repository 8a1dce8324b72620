/**
 * RFC 9112 §3.2: an HTTP/1.1 request carries exactly one Host header, and a
 * server answers 400 to one without it or with several. Node checks only the
 * first case (and answers with a bare status line, no body), and keeps the
 * first of several; the gateway checks both itself, before anything reads
 * the request, and answers the same problem body as every other 400.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { problem, problemHeaders, toProblem } from './problem.ts'
import { requestIdFrom } from './request-id.ts'

/** Why the request's Host header is not acceptable, or undefined when it is. */
export function hostDefect(req: IncomingMessage): string | undefined {
  const raw = req.rawHeaders
  let count = 0
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    if (name.length === 4 && name.toLowerCase() === 'host') count++
  }
  if (count > 1) return 'The request carries more than one Host header; send exactly one (RFC 9112 §3.2).'
  // HTTP/1.0 predates Host: only 1.1 must have one.
  if (count === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
    return 'The request has no Host header; HTTP/1.1 requests must send exactly one (RFC 9112 §3.2).'
  return undefined
}

/** Answer 400 /problems/bad-request and close: which host the client meant cannot be known. */
export function answerHostDefect(req: IncomingMessage, res: ServerResponse, detail: string): void {
  const first = req.headers['x-request-id']
  const body = JSON.stringify(toProblem(problem('bad-request', { detail }), req.url?.slice(0, 200)))
  const headers = {
    ...problemHeaders(requestIdFrom(Array.isArray(first) ? first[0] : first), body),
    connection: 'close',
  }
  res.writeHead(400, headers)
  res.end(req.method === 'HEAD' ? undefined : body)
}
