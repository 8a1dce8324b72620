/**
 * Answers for requests Node's HTTP parser rejects before the app sees them
 * (headers over the size cap, malformed request lines, header timeouts).
 * Node would answer with a bare status line; callers get the same RFC 9457
 * problem body as every other error instead.
 */
import type { Duplex } from 'node:stream'
import { STATUS_CODES } from 'node:http'
import type { ProblemName } from '../../contract/problems.ts'
import { problem, problemHeaders, toProblem } from './problem.ts'
import { requestIdFrom } from './request-id.ts'

interface ParserError extends Error {
  code?: string
}

/** Which problem a parser error is, with the status Node itself would have used. */
function classify(code: string | undefined): { name: ProblemName; status: number; detail: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        name: 'headers-too-large',
        status: 431,
        detail: 'The request headers are larger than the gateway accepts (16 KiB in total).',
      }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        name: 'payload-too-large',
        status: 413,
        detail: 'The chunk extensions of the request body are too large.',
      }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { name: 'timeout', status: 408, detail: 'The request was not received in time.' }
    default:
      return {
        name: 'bad-request',
        status: 400,
        detail: 'The request is not valid HTTP/1.1 (request line, header or body framing).',
      }
  }
}

/** `server.on('clientError', answerClientError)`. */
export function answerClientError(error: ParserError, socket: Duplex): void {
  // Nothing useful to say to a peer that is gone, or mid-way through another answer.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy()
    return
  }
  const { name, status, detail } = classify(error.code)
  // The request could not be read, so neither its target nor its id: a problem without `instance`, a new id.
  const body = JSON.stringify(toProblem(problem(name, { detail, status })))
  const headers = { ...problemHeaders(requestIdFrom(undefined), body), connection: 'close' }
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)]
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
}
