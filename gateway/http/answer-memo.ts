/**
 * Answers the gateway already gave, remembered by request target in the
 * build they came from, so the same request again is answered without
 * routing (fast-reads.ts). Only answers that depend on nothing but the method
 * (GET or HEAD), the target and the build are remembered: stored and
 * rendered bodies of the public read routes; and those that depend on the
 * clock too (`when=`), for the stretch of time they stay the same. Their headers are computed
 * once, here; the body is held weakly, so the memo never keeps alive what the
 * byte-bounded cache let go. They live in that cache too (files/cache.ts),
 * charged for their headers and target: every distinct query string an
 * answer is remembered for takes its share of FILE_CACHE_MB, not more memory.
 * An answer the gateway computes remembers its route's budget, which the
 * fast path charges as the app would.
 */
import type { Snapshot } from '../snapshot.ts'
import type { StoredFile } from '../files/source.ts'
import type { Charge } from './budgets.ts'

/** What an entry keeps alive besides its strings: the entry, its two header arrays, the WeakRef (an allowance). */
const ENTRY_OVERHEAD = 256

export interface MemoAnswer {
  /** The 200 answer's headers, flat (`[name, value, …]`), the request id's value left empty at `idIndex`. */
  readonly headers: readonly string[]
  /** The same for the 304 answer (no content type or length). */
  readonly notModifiedHeaders: readonly string[]
  readonly idIndex: number
  readonly notModifiedIdIndex: number
  /** The answer's strong ETag, undefined for answers without one (health): those never answer 304. */
  readonly etag: string | undefined
  readonly file: WeakRef<StoredFile>
  /** The path as the request log reports it. */
  readonly pathname: string
  /** The media type the Accept header must admit, when the route checks it. */
  readonly accept: string | undefined
  /** The budgets every repeat of this request draws from (an answer the gateway computes). */
  readonly charge: Charge | undefined
  /** For an answer of the clock's: the stretch (epoch ms, `until` excluded) it may be repeated over. */
  readonly during: { from: number; until: number } | undefined
}

const keyOf = (snapshot: Snapshot, target: string) => `answer\0${snapshot.id}\0${target}`

export function recallAnswer(snapshot: Snapshot, target: string): MemoAnswer | undefined {
  const entry = snapshot.cache.get(keyOf(snapshot, target))
  return entry !== undefined && 'answer' in entry ? entry.answer : undefined
}

export function forgetAnswer(snapshot: Snapshot, target: string): void {
  snapshot.cache.delete(keyOf(snapshot, target))
}

/** Remember the answer of `target`: `headers` is the 200 answer's header record, in the order it is sent. */
export function rememberAnswer(
  snapshot: Snapshot,
  target: string,
  answer: {
    headers: Record<string, string>
    file: StoredFile
    pathname: string
    accept: string | undefined
    charge: Charge | undefined
    etag?: false
    during?: { from: number; until: number } | undefined
  },
): void {
  const key = keyOf(snapshot, target)
  if (recallAnswer(snapshot, target)) return
  const flat = (record: Record<string, string>) =>
    Object.entries(record).flatMap(([k, v]) => [k, k === 'x-request-id' ? '' : v])
  const { 'content-type': _type, 'content-length': _length, ...rest } = answer.headers
  const headers = flat(answer.headers)
  const notModifiedHeaders = flat(rest)
  let size = ENTRY_OVERHEAD + key.length + answer.pathname.length
  for (const text of headers) size += text.length
  for (const text of notModifiedHeaders) size += text.length
  const memo: MemoAnswer = {
    headers,
    notModifiedHeaders,
    idIndex: headers.indexOf('x-request-id') + 1,
    notModifiedIdIndex: notModifiedHeaders.indexOf('x-request-id') + 1,
    etag: answer.etag === false ? undefined : answer.file.etag,
    file: new WeakRef(answer.file),
    pathname: answer.pathname,
    accept: answer.accept,
    charge: answer.charge,
    during: answer.during,
  }
  snapshot.cache.set(key, { answer: memo, size })
}
