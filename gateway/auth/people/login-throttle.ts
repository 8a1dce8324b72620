/**
 * Password guessing is throttled per client address and per account: after
 * a few failed sign-ins within a window, further attempts are refused (429,
 * Retry-After) without checking the password, until the window ends. The
 * counters live in the state store, so every process (every Netlify
 * function instance) sees the same ones; keys are hashes, never the email.
 */
import { createHash } from 'node:crypto'
import { normalizeEmail } from './people.ts'
import type { StateStore } from '../store/state-store.ts'

export interface LoginThrottleOptions {
  /** Failures allowed per account within a window. */
  perAccount: number
  /** Failures allowed per client address within a window (several people may share one address). */
  perAddress: number
  windowSeconds: number
  now?: () => number
}

export const LOGIN_THROTTLE: LoginThrottleOptions = { perAccount: 5, perAddress: 10, windowSeconds: 15 * 60 }

export type ThrottleVerdict = { ok: true } | { ok: false; retryAfterSeconds: number; by: 'address' | 'account' }

interface Window {
  start: number
  count: number
}

export interface LoginThrottle {
  check(address: string, email: string): Promise<ThrottleVerdict>
  failed(address: string, email: string): Promise<void>
  /** A correct password clears the account's failures (not the address's). */
  succeeded(email: string): Promise<void>
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64url')

export function createLoginThrottle(store: StateStore, options: LoginThrottleOptions = LOGIN_THROTTLE): LoginThrottle {
  const now = options.now ?? Date.now
  const span = options.windowSeconds * 1000
  const keys = (address: string, email: string) => ({
    address: `throttle/login-address/${hash(address)}`,
    account: `throttle/login-account/${hash(normalizeEmail(email))}`,
  })
  const current = async (key: string): Promise<Window | undefined> => {
    const window = await store.get<Window>(key)
    return window && now() - window.start < span ? window : undefined
  }
  const retryAfter = (window: Window) => Math.max(1, Math.ceil((window.start + span - now()) / 1000))

  return {
    async check(address, email) {
      const k = keys(address, email)
      const [byAddress, byAccount] = await Promise.all([current(k.address), current(k.account)])
      if (byAccount && byAccount.count >= options.perAccount) return { ok: false, retryAfterSeconds: retryAfter(byAccount), by: 'account' }
      if (byAddress && byAddress.count >= options.perAddress) return { ok: false, retryAfterSeconds: retryAfter(byAddress), by: 'address' }
      return { ok: true }
    },
    async failed(address, email) {
      const k = keys(address, email)
      await Promise.all(
        [k.address, k.account].map(async (key) => {
          // Read-modify-write: concurrent failures may undercount by a few, never unlock an account.
          const window = (await current(key)) ?? { start: now(), count: 0 }
          window.count++
          await store.set(key, window, Math.max(1, Math.ceil((window.start + span - now()) / 1000)))
        }),
      )
    },
    async succeeded(email) {
      await store.delete(keys('', email).account)
    },
  }
}
