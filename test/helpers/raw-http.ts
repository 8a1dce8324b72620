/**
 * Raw HTTP/1.1 over node:net, for requests fetch refuses to send (bad request
 * lines, NUL bytes, oversized or malformed headers). Reads until the server
 * closes the connection or `timeoutMs` passes.
 */
import { connect } from 'node:net'

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
  /** Everything received, for assertions on what must never appear. */
  raw: string
}

export function rawRequest(baseUrl: string, request: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) })
    const chunks: Buffer[] = []
    const timer = setTimeout(() => socket.destroy(), timeoutMs)
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', () => {}) // a reset after the answer is fine; judged by what arrived
    socket.on('close', () => {
      clearTimeout(timer)
      const raw = Buffer.concat(chunks).toString('latin1')
      const parsed = parse(raw)
      if (!parsed) reject(new Error(`no HTTP answer (received ${JSON.stringify(raw.slice(0, 200))})`))
      else resolve(parsed)
    })
    // No half-close: Node's server aborts in-flight requests when the client sends FIN.
    // Requests carry `Connection: close` (or are malformed), so the server closes.
    socket.write(request)
  })
}

function parse(raw: string): RawResponse | undefined {
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n')
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)
  if (!match) return undefined
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const i = line.indexOf(':')
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim()
  }
  let body = raw.slice(end + 4)
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body)
  return { status: Number(match[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8'), raw }
}

function unchunk(text: string): string {
  let out = ''
  let rest = text
  for (;;) {
    const eol = rest.indexOf('\r\n')
    if (eol < 0) return out
    const size = parseInt(rest.slice(0, eol), 16)
    if (!size) return out
    out += rest.slice(eol + 2, eol + 2 + size)
    rest = rest.slice(eol + 2 + size + 2)
  }
}
