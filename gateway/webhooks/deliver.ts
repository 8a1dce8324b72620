/**
 * One delivery attempt: the message POSTed as JSON with the Standard Webhooks
 * headers (signed by the `standardwebhooks` library with every secret that
 * signs now, so during a rotation's overlap the header carries both
 * signatures), over node:http(s) with the SSRF guard in the connection's own
 * DNS lookup, no redirect followed, the endpoint's timeout on the whole
 * exchange, and at most a few KiB of the answer read.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Webhook } from 'standardwebhooks'
import { WEBHOOK_HEADERS } from '../../contract/webhook-events.ts'
import { AddressRefusedError, checkUrlForm, guardedLookup, type UrlPolicy } from './url-policy.ts'

const MAX_ANSWER_BYTES = 4096
const USER_AGENT = 'content-api-webhooks/1'

export interface AttemptResult {
  /** The HTTP status, or null when no answer came. */
  status: number | null
  ok: boolean
  latencyMs: number
  error: string | null
  /** From a Retry-After header, in milliseconds. */
  retryAfterMs: number | undefined
  /** The URL policy refused it (its form, or an address it resolved to): nothing was sent. */
  refused: boolean
}

export interface OutgoingMessage {
  url: string
  msgId: string
  payload: string
  /** Plain `whsec_` secrets, each of which signs. */
  secrets: string[]
}

/** The three Standard Webhooks headers for `message` sent at `sentAt`. */
export function signedHeaders(message: OutgoingMessage, sentAt: Date): Record<string, string> {
  const signatures = message.secrets.map((s) => new Webhook(s).sign(message.msgId, sentAt, message.payload))
  return {
    [WEBHOOK_HEADERS.id]: message.msgId,
    [WEBHOOK_HEADERS.timestamp]: String(Math.floor(sentAt.getTime() / 1000)),
    [WEBHOOK_HEADERS.signature]: signatures.join(' '),
  }
}

export async function attemptDelivery(
  message: OutgoingMessage,
  options: { timeoutMs: number; policy: UrlPolicy },
): Promise<AttemptResult> {
  // The webhook-timestamp is the wall clock of this attempt: receivers check it against theirs.
  const headers = { ...signedHeaders(message, new Date()), 'content-type': 'application/json' }
  return postGuarded(message.url, headers, message.payload, options)
}

/** POST `body` to `target` under the URL policy: the checks, the guarded lookup, the timeout, a bounded read. */
export async function postGuarded(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; policy: UrlPolicy },
): Promise<AttemptResult> {
  const started = performance.now()
  const result = (
    status: number | null,
    error: string | null,
    retryAfterMs?: number,
    refused = false,
  ): AttemptResult => ({
    status,
    ok: status !== null && status >= 200 && status < 300,
    latencyMs: Math.round(performance.now() - started),
    error,
    retryAfterMs,
    refused,
  })
  let url: URL
  try {
    url = checkUrlForm(target, options.policy)
  } catch (error) {
    return result(null, `refused: ${(error as Error).message.replace(/^--url /, 'the URL ')}`, undefined, true)
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<AttemptResult>((resolve) => {
    let settled = false
    const finish = (r: AttemptResult) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(r)
    }
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'user-agent': USER_AGENT },
        agent: false,
        lookup: guardedLookup(options.policy),
      },
      (res: IncomingMessage) => {
        let read = 0
        res.on('data', (chunk: Buffer) => {
          read += chunk.length
          if (read > MAX_ANSWER_BYTES) res.destroy()
        })
        const done = () => {
          const status = res.statusCode ?? null
          finish(result(status, status !== null && status >= 300 ? `HTTP ${status}` : null, retryAfter(res)))
        }
        res.on('end', done)
        res.on('close', done)
        res.on('error', done)
      },
    )
    const timer = setTimeout(() => {
      req.destroy()
      finish(result(null, `no answer within ${options.timeoutMs} ms`))
    }, options.timeoutMs)
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        result(
          null,
          error.code ? `${error.code}: ${error.message}` : error.message,
          undefined,
          error instanceof AddressRefusedError,
        ),
      ),
    )
    req.end(body)
  })
}

/** Retry-After as delay-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfter(res: Pick<IncomingMessage, 'headers'>, now = Date.now()): number | undefined {
  const value = res.headers['retry-after']
  if (typeof value !== 'string' || value === '') return undefined
  if (/^\d{1,9}$/.test(value.trim())) return Number(value.trim()) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
