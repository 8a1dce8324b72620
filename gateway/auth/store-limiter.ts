/**
 * rate-limiter-flexible over the state store (RateLimiterStoreAbstract, the
 * library's base for a store of one's own): the counts of failed
 * authentications live where every gateway process and every Netlify
 * function instance sees them — files for `npm start`, Netlify Blobs on
 * Netlify. A count is read and written back (the store has no increment),
 * so concurrent failures may undercount by a few, never unlock anyone; a
 * window starts at its first point and its record expires with it. Time is
 * the gateway's clock, which tests move.
 */
import { RateLimiterRes } from 'rate-limiter-flexible'
import RateLimiterStoreAbstract from 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js'
import type { StateStore } from './store/state-store.ts'

/** One window as stored: points taken and when it ends (epoch ms). */
interface Counted {
  points: number
  expire: number
}

export interface StoreLimiterOptions {
  store: StateStore
  /** Points allowed per window and key. */
  points: number
  /** Seconds a window lasts from its first point. */
  duration: number
  now?: () => number
}

export class StateStoreLimiter extends RateLimiterStoreAbstract {
  private readonly store: StateStore
  private readonly now: () => number

  constructor(options: StoreLimiterOptions) {
    // No prefix: the keys are the caller's state keys (`throttle/<kind>-<what>/<hash>`).
    super({ storeClient: options.store, keyPrefix: '', points: options.points, duration: options.duration })
    this.store = options.store
    this.now = options.now ?? Date.now
  }

  /** The library's result of a store result. */
  _getRateLimiterRes(_rlKey: string, changedPoints: number, result: Counted): RateLimiterRes {
    return new RateLimiterRes(
      Math.max(this.points - result.points, 0),
      Math.max(result.expire - this.now(), 0),
      result.points,
      changedPoints === result.points,
    )
  }

  /** Add `points` to the key's window (a new window when there is none, or when asked to start one). */
  async _upsert(rlKey: string, points: number, msDuration: number, forceExpire = false): Promise<Counted> {
    const at = this.now()
    const old = forceExpire ? null : await this._get(rlKey)
    const value: Counted = old
      ? { points: old.points + points, expire: old.expire }
      : { points, expire: at + (msDuration > 0 ? msDuration : this.duration * 1000) }
    await this.store.set(rlKey, value, Math.max(1, Math.ceil((value.expire - at) / 1000)))
    return value
  }

  /** The key's window, or null when there is none (or it has ended, or is not one of ours). */
  async _get(rlKey: string): Promise<Counted | null> {
    const value = await this.store.get<Partial<Counted>>(rlKey)
    if (typeof value?.points !== 'number' || typeof value.expire !== 'number' || value.expire <= this.now()) return null
    return { points: value.points, expire: value.expire }
  }

  async _delete(rlKey: string): Promise<boolean> {
    await this.store.delete(rlKey)
    return true
  }
}
