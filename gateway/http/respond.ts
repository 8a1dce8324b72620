/**
 * Build answers for stored or rendered bodies: strong ETag, 304 on a
 * matching If-None-Match, HEAD without a body, and the RateLimit fields of
 * a budget the request drew from. A body still being read from disk is
 * awaited; one that is gone or changed on disk is a 503 problem.
 */
import type { H3Event } from 'h3'
import { FastResponse } from 'srvx'
import { ArtifactError, type Snapshot, type StoredFile } from '../artifacts.ts'
import { baseHeaderRecord } from '../../contract/headers.ts'
import { cacheControlAt } from '../../contract/schedule.ts'
import { rememberAnswer } from './answer-memo.ts'
import type { Charge } from './budgets.ts'
import { chargedOf, type Charged } from './budget-guard.ts'
import { unavailable } from './problem.ts'
import { deprecationOf } from './deprecation.ts'
import { requestIdOf } from './request-id.ts'

/** What the fast path needs to repeat an answer (http/answer-memo.ts). */
export interface Memo {
  snapshot: Snapshot
  /** The media type the route required of Accept. */
  accept?: string
  /** An answer of the clock's (`when=`): repeated only while the clock is in [from, until) (epoch ms). */
  during?: { from: number; until: number }
}

export interface RespondOptions {
  contentType: string
  cacheControl: string
  status?: number
  headers?: Record<string, string>
  /**
   * The build the answer is made of, and the gateway's clock (epoch ms, the
   * platform's `now`): no cache keeps the answer past the build's next
   * release or expiry (Cache-Control capped at the time left). Every answer
   * of a build's content gives it, whatever else it depends on.
   */
  build?: { snapshot: Snapshot; now: number }
  /**
   * The answer depends only on the target and the build (a public read), or
   * on those and the clock over a stretch of time (`during`): remember it so
   * the same request is answered again without routing (http/fast-reads.ts).
   * Only with `build`. An answer Accept-Language chose depends on a header too:
   * it is capped but not remembered.
   */
  memo?: Omit<Memo, 'snapshot'>
}

export function respondWithFile(
  event: H3Event,
  file: StoredFile | Promise<StoredFile>,
  options: RespondOptions,
): Response | Promise<Response> {
  if (!(file instanceof Promise)) return respond(event, file, options)
  return file.then(
    (f) => respond(event, f, options),
    (error: unknown) => {
      if (!(error instanceof ArtifactError)) throw error
      throw unavailable('This build is not fully available; retry shortly.')
    },
  )
}

function respond(event: H3Event, file: StoredFile, options: RespondOptions): Response {
  // No cache keeps an answer of a build past its next release or expiry (contract/schedule.ts).
  const { build } = options
  const cacheControl = build
    ? cacheControlAt(options.cacheControl, build.snapshot.manifest.build, build.now)
    : options.cacheControl
  const headers = baseHeaderRecord(requestIdOf(event), options.contentType, cacheControl)
  headers.etag = file.etag
  if (options.headers) Object.assign(headers, lowerCaseKeys(options.headers))
  const charged = chargedOf(event)
  if (matchesEtag(event.req.headers.get('if-none-match'), file.etag)) {
    delete headers['content-type']
    return new FastResponse(null, { status: 304, headers: withFields(headers, charged) })
  }
  headers['content-length'] = String(file.body.byteLength)
  // Remembered without this request's RateLimit fields: the fast path charges each repeat itself. A capped
  // lifetime shrinks as the release nears: such an answer is made anew each time (http/fast-reads.ts).
  if (build && options.memo && options.status === undefined && cacheControl === options.cacheControl)
    remember(event, file, headers, { snapshot: build.snapshot, ...options.memo }, charged?.charge)
  withFields(headers, charged)
  // srvx's FastResponse (what h3 itself answers with) writes the bytes and the plain
  // header object straight to the socket; a web Response would build a Headers
  // instance and stream the body through a ReadableStream, costing more than the rest.
  const body = event.req.method === 'HEAD' ? null : (file.body as Uint8Array<ArrayBuffer>)
  return new FastResponse(body, { status: options.status ?? 200, headers })
}

/** The budget's fields into the answer's own headers (then the budget guard leaves the answer alone). */
function withFields(headers: Record<string, string>, charged: Charged | undefined): Record<string, string> {
  if (!charged) return headers
  Object.assign(headers, charged.fields)
  charged.sent = true
  return headers
}

/** Only on Node, where the fast path reads the raw request target; `etag: false` for an answer without one. */
export function remember(
  event: H3Event,
  file: StoredFile,
  headers: Record<string, string>,
  memo: Memo,
  charge: Charge | undefined,
  etag?: false,
): void {
  const target = event.runtime?.node?.req?.url
  const method = event.req.method
  // An answer naming a deprecation has headers the fast path would not repeat.
  if (!target || (method !== 'GET' && method !== 'HEAD') || deprecationOf(event)) return
  rememberAnswer(memo.snapshot, target, {
    headers,
    file,
    pathname: event.url.pathname,
    accept: memo.accept,
    charge,
    etag,
    during: memo.during,
  })
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v
  return out
}

/** RFC 9110 If-None-Match: `*` or a list of (weak or strong) tags, compared weakly. */
export function matchesEtag(header: string | null | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}
