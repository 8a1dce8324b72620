/**
 * In-memory rate limiting for one process: a fixed window per client key.
 * The budgets (budgets.ts) count requests with it; across instances
 * (Netlify), the platform's own rate limiting holds the line for the
 * budgets that say so; see RELIABILITY.md.
 */

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
