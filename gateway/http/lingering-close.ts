/**
 * Lingering close, as nginx does it: when the gateway answers a request
 * before reading its whole body (a 413 for a body over the limit) and closes
 * the connection, Node would destroy the socket while the client is still
 * sending; the kernel then resets the connection, and a client busy writing
 * (Node's fetch, most HTTP libraries) sees EPIPE or ECONNRESET instead of the
 * answer it was sent. So such a socket is half-closed after the answer (FIN,
 * so the client knows no more is coming) and what still arrives is read and
 * dropped — until the body ends, for at most LINGERING_CLOSE.ms, LINGERING_CLOSE.idleMs
 * without data, or LINGERING_CLOSE.bytes — and only then destroyed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** The bounds of a lingering close (nginx: lingering_time 30 s, lingering_timeout 5 s). */
export const LINGERING_CLOSE = { ms: 10_000, idleMs: 2_000, bytes: 64 * 2 ** 20 } as const

const CURRENT = Symbol('current request')
type Tracked = Socket & { [CURRENT]?: IncomingMessage }

/** Wrap a request handler so each socket knows the request it is answering. */
export function trackRequests(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    ;(req.socket as Tracked)[CURRENT] = req
    handler(req, res)
  }
}

/**
 * `server.on('connection', drainBeforeClose)`: Node ends a connection after
 * an answer with `connection: close` through the socket's destroySoon; a
 * socket whose request is not fully received lingers first.
 */
export function drainBeforeClose(socket: Socket): void {
  const destroySoon = socket.destroySoon.bind(socket)
  socket.destroySoon = () => {
    const req = (socket as Tracked)[CURRENT]
    if (!req || req.complete || socket.destroyed) destroySoon()
    else linger(socket, req)
  }
}

function linger(socket: Socket, req: IncomingMessage): void {
  // Our answer is out; this FIN follows it, and the client still may send.
  socket.end()
  let dropped = 0
  const done = () => {
    clearTimeout(total)
    clearTimeout(idle)
    socket.destroy()
  }
  const total = setTimeout(done, LINGERING_CLOSE.ms)
  const idle = setTimeout(done, LINGERING_CLOSE.idleMs)
  // Whatever was reading the body (the web stream over it) is done with it: drop the rest here.
  req.removeAllListeners('data')
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.byteLength
    if (dropped > LINGERING_CLOSE.bytes) done()
    else idle.refresh()
  })
  req.once('end', done)
  req.once('error', done)
  socket.once('close', done)
  req.resume()
}
