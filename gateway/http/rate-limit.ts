/**
 * In-memory rate limiting for one process: a fixed window per client key,
 * answered with 429 `/problems/rate-limited`, `Retry-After`, and the IETF
 * `RateLimit` / `RateLimit-Policy` fields (draft-ietf-httpapi-ratelimit-headers-10).
 * A request is counted against its client address and, when it carries a
 * credential, against that credential too (kept only as a hash), so neither
 * rotating credentials nor spreading one credential over many addresses
 * escapes the limit. Across instances (Netlify), the platform's own rate
 * limiting holds the line; see RELIABILITY.md.
 */
import { createHash } from 'node:crypto'
import { HTTPError, HTTPResponse, type H3Event, type Middleware } from 'h3'
import { clientIp, type TrustProxy } from './client-ip.ts'
import { problem } from './problem.ts'

export interface RateLimiterOptions {
  /** Requests allowed per window and key. */
  limit: number
  windowSeconds: number
  /** Most keys remembered; past it, expired windows are dropped, then the oldest. */
  maxKeys?: number
  /** Clock in milliseconds (tests pass their own). */
  now?: () => number
}

export interface RateDecision {
  allowed: boolean
  /** Requests left in this window after this one. */
  remaining: number
  /** Seconds until the window resets. */
  resetSeconds: number
}

interface Window {
  start: number
  count: number
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>()
  private readonly now: () => number
  private readonly maxKeys: number
  private lastSweep = 0

  constructor(readonly options: RateLimiterOptions) {
    this.now = options.now ?? Date.now
    this.maxKeys = options.maxKeys ?? 100_000
  }

  /** Count one request for `key` (unless it is already over the limit) and say whether it may pass. */
  take(key: string): RateDecision {
    const now = this.now()
    const span = this.options.windowSeconds * 1000
    // Once a window's time, forget the windows that have ended: clients that came once (a new
    // address or a made-up credential per request) would otherwise stay until the table is full.
    if (now - this.lastSweep >= span) {
      this.lastSweep = now
      for (const [k, w] of this.windows) if (now - w.start >= span) this.windows.delete(k)
    }
    let window = this.windows.get(key)
    if (!window || now - window.start >= span) {
      if (window) this.windows.delete(key)
      window = { start: now, count: 0 }
      this.windows.set(key, window)
      if (this.windows.size > this.maxKeys) this.evict(now, span)
    }
    const allowed = window.count < this.options.limit
    if (allowed) window.count++
    const resetSeconds = Math.max(1, Math.ceil((window.start + span - now) / 1000))
    return { allowed, remaining: this.options.limit - window.count, resetSeconds }
  }

  get size(): number {
    return this.windows.size
  }

  private evict(now: number, span: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= span) this.windows.delete(key)
    // Still full: forget the oldest windows (insertion order) rather than grow without bound.
    for (const key of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break
      this.windows.delete(key)
    }
  }
}

/** Hash of a credential: enough to tell credentials apart, useless to anyone reading memory. */
function credentialKey(authorization: string): string {
  return createHash('sha256').update(authorization).digest('base64url').slice(0, 22)
}

/** Middleware: 429 when the client or its credential is over the limit; RateLimit headers on every answer. */
export function rateLimit(limiter: RateLimiter, trust: TrustProxy): Middleware {
  const { limit, windowSeconds } = limiter.options
  return (event, next) => {
    const checks: [string, RateDecision][] = [['ip', limiter.take(`ip:${clientIp(event, trust)}`)]]
    const authorization = event.req.headers.get('authorization')
    // A client already over its address limit adds nothing more: sending a new
    // made-up credential per request cannot fill the table and evict others' windows.
    if (authorization && checks[0]![1].allowed)
      checks.push(['credential', limiter.take(`cred:${credentialKey(authorization)}`)])
    const headers = {
      'ratelimit-policy': checks.map(([name]) => `"${name}";q=${limit};w=${windowSeconds}`).join(', '),
      ratelimit: checks.map(([name, d]) => `"${name}";r=${Math.max(0, d.remaining)};t=${d.resetSeconds}`).join(', '),
    }
    const denied = checks.filter(([, d]) => !d.allowed)
    if (denied.length) {
      const retryAfter = Math.max(...denied.map(([, d]) => d.resetSeconds))
      throw problem('rate-limited', {
        detail: `Too many requests from this ${denied.map(([n]) => (n === 'ip' ? 'client address' : 'credential')).join(' and ')}: at most ${limit} per ${windowSeconds} s. Retry after ${retryAfter} s.`,
        headers: { ...headers, 'retry-after': String(retryAfter) },
      })
    }
    return withHeaders(event, next, headers)
  }
}

/**
 * Run the route and put `headers` on whatever it answers: a value, a Response
 * (of any status) or a thrown problem, so a client sees its quota on 401s too.
 * An answer that already has RateLimit fields (a failed-authentication 429)
 * keeps them, and ours are added after them.
 */
async function withHeaders(event: H3Event, next: () => unknown, headers: Record<string, string>): Promise<unknown> {
  let value: unknown
  try {
    value = await next()
  } catch (error) {
    if (!HTTPError.isError(error) || error.unhandled) throw error
    const merged = new Headers(error.headers)
    addFields(merged, headers)
    throw new HTTPError({
      status: error.status,
      statusText: error.statusText,
      message: error.message,
      data: error.data,
      headers: merged,
      cause: error.cause,
    })
  }
  if (value instanceof HTTPResponse) {
    addFields(value.headers, headers)
    return value
  }
  if (!(value instanceof Response)) {
    // Plain values (objects, strings) get h3's prepared headers merged in.
    addFields(event.res.headers, headers)
    return value
  }
  const merged = new Headers(value.headers)
  addFields(merged, headers)
  return new Response(value.body, { status: value.status, statusText: value.statusText, headers: merged })
}

/** RateLimit and RateLimit-Policy are lists (draft-ietf-httpapi-ratelimit-headers): append to what is there. */
function addFields(target: Headers, fields: Record<string, string>): void {
  for (const [name, value] of Object.entries(fields)) {
    const existing = target.get(name)
    target.set(name, existing ? `${existing}, ${value}` : value)
  }
}
