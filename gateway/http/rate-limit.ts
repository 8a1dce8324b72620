/**
 * Rate limiting with rate-limiter-flexible: fixed windows per client key,
 * counted by a limiter of the library. Where the counts live is the
 * backend's choice — this process's memory for the budgets (budgets.ts;
 * across Netlify's instances the platform's own rate limiting holds the
 * line for the budgets that say so, see RELIABILITY.md), the shared state
 * store for failed authentications (gateway/auth/store-limiter.ts). A
 * shared backend such as RateLimiterRedis is one more LimiterBackend.
 *
 * A window starts at a key's first request and lasts the budget's window,
 * as the library counts. Given a clock of its own (the platform's, which
 * tests move), the windows follow it instead: each window's key names its
 * number on that clock, so a clock moved past a window starts a new one,
 * while the library's own expiry still bounds how long a key is kept.
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'

/** Makes the library's limiter for one budget: `points` per `duration` seconds, keys under `keyPrefix`. */
export type LimiterBackend = (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract

/** In this process's memory (the default). */
export const inMemory: LimiterBackend = (options) => new RateLimiterMemory(options)

export interface RateLimiterOptions {
  /** Names the limiter's keys (one limiter per budget). */
  name: string
  /** Requests allowed per window and key. */
  limit: number
  windowSeconds: number
  backend?: LimiterBackend
  /** A clock in milliseconds the windows follow (the platform's); without it, the library's own. */
  now?: () => number
}

export interface RateDecision {
  allowed: boolean
  /** Requests left in this window after this one. */
  remaining: number
  /** Seconds until the window resets. */
  resetSeconds: number
}

export class RateLimiter {
  private readonly limiter: RateLimiterAbstract

  constructor(readonly options: RateLimiterOptions) {
    this.limiter = (options.backend ?? inMemory)({
      keyPrefix: options.name,
      points: options.limit,
      duration: options.windowSeconds,
    })
  }

  /**
   * Count `points` requests for `key` and say whether they may pass. All or none: a charge that would go past
   * the limit is refused whole and counts nothing, so a large batch refused leaves the rest for smaller ones.
   */
  async take(key: string, points = 1): Promise<RateDecision> {
    const { windowKey, windowLeft } = this.window(key)
    try {
      return decision(true, await this.limiter.consume(windowKey, points), windowLeft)
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error
      const left = await this.limiter.reward(windowKey, points)
      return decision(false, left, windowLeft)
    }
  }

  /** Give back `points` taken for `key` in this window (a request another budget refused). */
  async refund(key: string, points = 1): Promise<void> {
    await this.limiter.reward(this.window(key).windowKey, points)
  }

  private window(key: string): { windowKey: string; windowLeft: number } {
    const { now } = this.options
    if (!now) return { windowKey: key, windowLeft: Number.POSITIVE_INFINITY }
    const span = this.options.windowSeconds * 1000
    const at = now()
    const window = Math.floor(at / span)
    return { windowKey: `${key}@${window}`, windowLeft: (window + 1) * span - at }
  }
}

function decision(allowed: boolean, res: RateLimiterRes, windowLeft: number): RateDecision {
  const ms = Math.min(res.msBeforeNext >= 0 ? res.msBeforeNext : Number.POSITIVE_INFINITY, windowLeft)
  return { allowed, remaining: res.remainingPoints, resetSeconds: Math.max(1, Math.ceil(ms / 1000)) }
}
