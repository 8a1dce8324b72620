/**
 * The ceiling: a bare node:http server answering each benchmarked request
 * with the same bytes the gateway sent, headers included (so the load
 * generator parses the same answer), from memory.
 * Usage: `node --import tsx bench/servers/ceiling.ts <routes.json>`; prints
 * `{"url": …}` on stdout when listening.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface CeilingRoute {
  method: string
  path: string
  status: number
  /** The gateway's response headers (minus the ones Node's server writes itself). */
  headers: Record<string, string>
  /** base64 of the exact response body. */
  body: string
}

const routes = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>()
for (const r of JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as CeilingRoute[]) {
  const body = Buffer.from(r.body, 'base64')
  routes.set(`${r.method} ${r.path}`, {
    status: r.status,
    body,
    headers: { ...r.headers, 'content-length': String(body.length) },
  })
}

const server = createServer((req, res) => {
  const route = routes.get(`${req.method} ${req.url}`)
  const answer = () => {
    if (!route) return res.writeHead(404).end()
    res.writeHead(route.status, route.headers).end(route.body)
  }
  // POST bodies are read in full before answering, as the gateway does.
  if (req.method === 'POST') req.on('data', () => {}).on('end', answer)
  else answer()
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`)
})
