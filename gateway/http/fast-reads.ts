/**
 * The Node server's fast path: a GET or HEAD whose target the gateway has
 * already answered from a stored body in this build (answer-memo.ts) is
 * answered again straight on the socket, with the headers computed then,
 * this request's id, 304 for a matching If-None-Match, and its log line.
 * Anything else — another method, a target not seen yet, an Accept the route
 * would refuse, a body the cache let go, a store in trouble — goes to the h3
 * app, which stays the one place that decides answers. Routing, the Web
 * Request and Response objects and the middleware cost more than the rest of
 * such an answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ArtifactStore } from '../artifacts.ts'
import { capsAt } from '../../contract/schedule.ts'
import type { Logger } from '../log.ts'
import { forgetAnswer, recallAnswer, type MemoAnswer } from './answer-memo.ts'
import type { Verdict } from './budgets.ts'
import type { StoredFile } from '../files/source.ts'
import { clientAddress, type TrustProxy } from './client-ip.ts'
import { accepts } from './negotiate.ts'
import { logRequest } from './request-log.ts'
import { requestIdFrom } from './request-id.ts'
import { matchesEtag } from './respond.ts'

/**
 * Returns whether it answered (a promise of it for an answer that draws from a budget, which counts
 * asynchronously); when not, the caller hands the request to the app.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>

/** `now`: the clock of the answers that depend on it (the gateway's, epoch ms). */
export function fastReads(store: ArtifactStore, log: Logger, trust: TrustProxy, now: () => number): FastPath {
  return (req, res) => {
    const method = req.method
    if (method !== 'GET' && method !== 'HEAD') return false
    const snapshot = store.current()
    if (!snapshot || store.lastError() || req.url === undefined) return false
    // Near a release the app caps every answer's lifetime at the time left, which a remembered answer cannot.
    if (capsAt(snapshot.manifest.build, now())) return false
    const answer = recallAnswer(snapshot, req.url)
    if (!answer) return false
    if (answer.accept !== undefined && !accepts(req.headers.accept, answer.accept)) return false
    const file = answer.file.deref()
    const { during } = answer
    const at = during && now()
    if (!file || (during && !(during.from <= at! && at! < during.until))) {
      forgetAnswer(snapshot, req.url)
      return false
    }
    const started = performance.now()
    if (!answer.charge) return send(log, req, res, answer, file, started, undefined)
    // A computed answer draws from its route's budget each time; a refused one is the app's to answer (its 429).
    return answer
      .charge({
        ip: clientAddress(req.socket.remoteAddress, (name) => firstValue(req.headers[name]), trust),
        authorization: req.headers.authorization,
      })
      .then((verdict) => verdict.allowed && send(log, req, res, answer, file, started, verdict))
  }
}

function send(
  log: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  answer: MemoAnswer,
  file: StoredFile,
  started: number,
  verdict: Verdict | undefined,
): true {
  const id = requestIdFrom(firstValue(req.headers['x-request-id']))
  const notModified = answer.etag !== undefined && matchesEtag(req.headers['if-none-match'], answer.etag)
  const headers = (notModified ? answer.notModifiedHeaders : answer.headers).slice()
  headers[notModified ? answer.notModifiedIdIndex : answer.idIndex] = id
  if (verdict)
    headers.push('ratelimit-policy', verdict.fields['ratelimit-policy'], 'ratelimit', verdict.fields.ratelimit)
  const status = notModified ? 304 : 200
  logRequest(log, id, req.method!, answer.pathname, status, started)
  res.writeHead(status, headers)
  res.end(notModified || req.method === 'HEAD' ? undefined : file.body)
  return true
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
