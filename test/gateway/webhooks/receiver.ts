/**
 * A webhook receiver on 127.0.0.1, as a partner would write one: it verifies
 * each delivery with the Standard Webhooks library and the secret it was
 * given, keeps the events it accepted (deduplicated by webhook-id, as the
 * specification asks of receivers), and answers as the test tells it to.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import type { WebhookEvent } from '../../../contract/webhook-events.ts'

export interface Delivery {
  headers: IncomingHttpHeaders
  body: string
}

export interface Answer {
  status: number
  headers?: Record<string, string>
}

export interface Receiver {
  url: string
  /** Every request that arrived, in order. */
  deliveries: Delivery[]
  /** Accepted events, once per webhook-id, in the order first accepted. */
  events: WebhookEvent[]
  /** Each secret it verifies with (any one passing is enough). */
  secrets: string[]
  /** How to answer the next request: a status and headers (default 204), or null to never answer; a promise answers when it settles. */
  respond: (delivery: Delivery) => Answer | null | Promise<Answer | null>
  /** TCP connections accepted, whether or not a request came over them. */
  connections: number
  close(): Promise<void>
}

/** Verify `delivery` with `secret`; the parsed payload, or throws WebhookVerificationError. */
export function verify(delivery: Delivery, secret: string): WebhookEvent {
  return new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as WebhookEvent
}

/** A receiver listening on `host` (an IP address; 127.0.0.1 by default). */
export async function startReceiver(secrets: string[] = [], host = '127.0.0.1'): Promise<Receiver> {
  const seen = new Set<string>()
  const receiver: Receiver = {
    url: '',
    deliveries: [],
    events: [],
    secrets,
    respond: () => ({ status: 204 }),
    connections: 0,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        // A request it never answered holds its connection open.
        server.closeAllConnections()
      }),
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const delivery = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      receiver.deliveries.push(delivery)
      void Promise.resolve(receiver.respond(delivery)).then((answer) => answer && reply(delivery, answer))
    })
    const reply = (delivery: Delivery, answer: Answer) => {
      if (answer.status >= 200 && answer.status < 300) {
        const event = receiver.secrets.map((s) => tryVerify(delivery, s)).find((e) => e !== undefined)
        if (!event) {
          res.writeHead(400).end('bad signature')
          return
        }
        const id = String(req.headers['webhook-id'])
        if (!seen.has(id)) {
          seen.add(id)
          receiver.events.push(event)
        }
      }
      res.writeHead(answer.status, answer.headers).end()
    }
  })
  server.on('connection', () => receiver.connections++)
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()))
  const authority = `${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`
  receiver.url = `http://${authority}/hooks/content`
  return receiver
}

function tryVerify(delivery: Delivery, secret: string): WebhookEvent | undefined {
  try {
    return verify(delivery, secret)
  } catch {
    return undefined
  }
}
