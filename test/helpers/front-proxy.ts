/**
 * A load balancer for tests: one origin (the gateways' PUBLIC_URL) that
 * sends each request, in turn, to the next of its backends (or to the one
 * the test picks), over a
 * connection of its own (no keep-alive that would stick a client to one
 * backend), and notes which backend answered what. The Host header goes
 * through as the client sent it, as a load balancer's does.
 */
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Served {
  method: string
  path: string
  /** Index of the backend that answered. */
  backend: number
  status: number
}

export interface Front {
  url: string
  /** The backends' origins, in turn order; set once they listen. */
  backends: string[]
  /** Every request passed on, in order. */
  served: Served[]
  /** Which backend a request goes to, where the test decides (else the next in turn). */
  pick?: ((method: string, path: string) => number | undefined) | undefined
  close(): Promise<void>
}

export async function startFront(): Promise<Front> {
  let turn = 0
  const front: Front = {
    url: '',
    backends: [],
    served: [],
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
  const server: Server = createServer((req, res) => {
    const backend = front.pick?.(req.method ?? 'GET', req.url ?? '/') ?? turn++ % front.backends.length
    const target = new URL(req.url ?? '/', front.backends[backend])
    const upstream = request(target, { method: req.method, headers: req.headers, agent: false }, (answer) => {
      front.served.push({ method: req.method ?? 'GET', path: req.url ?? '/', backend, status: answer.statusCode ?? 0 })
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
      answer.pipe(res)
    })
    upstream.on('error', (error) => res.writeHead(502).end(error.message))
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return front
}
