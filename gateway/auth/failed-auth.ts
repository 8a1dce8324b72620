/**
 * Failed authentications, limited per client address and per identifier
 * (the email of a sign-in, the client_id at the token endpoint, an API
 * key's prefix), far tighter than ordinary traffic: one mechanism for the
 * sign-in page, the OAuth endpoints and bearer API keys. Failures are
 * counted in the state store by rate-limiter-flexible (store-limiter.ts),
 * so every process (every Netlify function instance) sees the same counts;
 * keys are hashes, never the identifier. A count that cannot be read or
 * written refuses the request with a 503: it fails closed, never open.
 *
 * Two kinds of secret, two orders:
 * - guessable (passwords): `check` reads the counts before the password is
 *   looked at, and once either limit is reached every attempt is refused
 *   unchecked until the window ends;
 * - unguessable (API keys and client secrets, 178 and 240 random bits):
 *   a valid credential always passes and costs no store access; a failure
 *   past a limit is answered 429 instead of 401, and an address past its
 *   limit is refused unchecked by every process that has seen it fail. The
 *   identifier is not locked: its owner keeps working, and nobody can lock
 *   out a published client id (the sandbox's) by failing on purpose.
 */
import { createHash } from 'node:crypto'
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import type { LimiterBackend } from '../http/rate-limit.ts'
import { unavailable } from '../http/problem.ts'
import { StateStoreLimiter } from './store-limiter.ts'
import type { StateStore } from './store/state-store.ts'

export type FailureKind = 'sign-in' | 'client-secret' | 'api-key'

export interface FailurePolicy {
  /** Failures allowed per client address within a window (several clients may share an address). */
  perAddress: number
  /** Failures allowed per identifier within a window. */
  perIdentifier: number
  windowSeconds: number
  /** What the identifier is: names the RateLimit policy (`failed-<kind>-<identifier>`) and the 429's detail. */
  identifier: 'account' | 'client' | 'prefix'
  guessable: boolean
}

const WINDOW = 15 * 60

export const FAILURE_POLICIES: Record<FailureKind, FailurePolicy> = {
  'sign-in': { perAddress: 10, perIdentifier: 5, windowSeconds: WINDOW, identifier: 'account', guessable: true },
  'client-secret': { perAddress: 20, perIdentifier: 10, windowSeconds: WINDOW, identifier: 'client', guessable: false },
  'api-key': { perAddress: 20, perIdentifier: 10, windowSeconds: WINDOW, identifier: 'prefix', guessable: false },
}

/** Who failed: the client address (TRUST_PROXY) and the identifier ('' when the request names none). */
export interface Subject {
  address: string
  identifier: string
}

export interface Refusal {
  ok: false
  by: 'address' | 'identifier'
  retryAfterSeconds: number
  /** Retry-After, RateLimit and RateLimit-Policy for the 429. */
  headers: Record<string, string>
  detail: string
}

export type Verdict = { ok: true } | Refusal

export interface FailureThrottle {
  /** Before the credential is checked: refused when this process knows the subject is over a limit (guessable: the store is read too). */
  check(kind: FailureKind, subject: Subject): Promise<Verdict>
  /** Count a failure; refused when it went past a limit. */
  failed(kind: FailureKind, subject: Subject): Promise<Verdict>
  /** A correct password clears the account's failures (not the address's); machine credentials keep no state on success. */
  succeeded(kind: FailureKind, identifier: string): Promise<void>
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64url')
const NAMES: Record<FailureKind, { identifier: string }> = {
  'sign-in': { identifier: 'account' },
  'client-secret': { identifier: 'client id' },
  'api-key': { identifier: 'API key' },
}
/** Most locks one process remembers; past it, expired ones go, then the oldest. */
const MAX_LOCKS = 10_000

export interface FailureThrottleOptions {
  policies?: Record<FailureKind, FailurePolicy>
  now?: () => number
  /** Told when the store cannot count a failure (or read a count): the request is then refused with a 503. */
  onStoreError?: (error: Error) => void
  /** Where the counts live: by default the state store (store-limiter.ts); another shared backend (Redis) fits here. */
  backend?: LimiterBackend
}

export function createFailureThrottle(store: StateStore, options: FailureThrottleOptions = {}): FailureThrottle {
  const policies = options.policies ?? FAILURE_POLICIES
  const now = options.now ?? Date.now
  /** Subjects this process saw go past a limit, until the window ends (ms). */
  const locks = new Map<string, number>()
  /** The counters: rate-limiter-flexible over the state store, one per kind and per what is counted. */
  const backend: LimiterBackend =
    options.backend ?? (({ points, duration }) => new StateStoreLimiter({ store, points, duration, now }))
  const limiters = new Map<string, RateLimiterAbstract>()
  const limiter = (kind: FailureKind, by: Refusal['by']) => {
    const name = `${kind}-${by}`
    let found = limiters.get(name)
    if (!found) {
      const p = policies[kind]
      const points = by === 'address' ? p.perAddress : p.perIdentifier
      // No prefix: the keys are state keys of their own (`throttle/<kind>-<what>/<hash>`).
      limiters.set(name, (found = backend({ keyPrefix: '', points, duration: p.windowSeconds })))
    }
    return found
  }

  const keys = (kind: FailureKind, s: Subject) => ({
    address: `throttle/${kind}-address/${hash(s.address)}`,
    identifier: `throttle/${kind}-${policies[kind].identifier}/${hash(s.identifier)}`,
  })
  const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000))
  const locked = (key: string): number | undefined => {
    const until = locks.get(key)
    if (until === undefined) return undefined
    if (until > now()) return secondsOf(until - now())
    locks.delete(key)
    return undefined
  }
  const lock = (key: string, seconds: number) => {
    locks.delete(key)
    locks.set(key, now() + seconds * 1000)
    if (locks.size <= MAX_LOCKS) return
    for (const [k, until] of locks) if (until <= now()) locks.delete(k)
    for (const k of locks.keys()) {
      if (locks.size <= MAX_LOCKS) break
      locks.delete(k)
    }
  }
  /** A count that cannot be read or written: the request is refused (fails closed), never let through. */
  const storeFailed = (error: unknown): never => {
    options.onStoreError?.(error as Error)
    // The store's fault rides along, so the sign-in page answers it with its page, not this problem's JSON.
    throw Object.assign(
      unavailable(
        'Failed authentications cannot be counted right now, so credentials cannot be checked; retry later.',
        5,
      ),
      { cause: error },
    )
  }
  /** Take one point: the window's state either way (a refusal is a count past the limit), or the store's error. */
  const count = async (kind: FailureKind, by: Refusal['by'], key: string) => {
    try {
      return { over: false, res: await limiter(kind, by).consume(key) }
    } catch (error) {
      if (error instanceof RateLimiterRes) return { over: true, res: error }
      return { error }
    }
  }

  function refusal(kind: FailureKind, by: Refusal['by'], retryAfterSeconds: number): Refusal {
    const p = policies[kind]
    const names = { address: `failed-${kind}-ip`, identifier: `failed-${kind}-${p.identifier}` }
    const minutes = Math.round(p.windowSeconds / 60)
    const what =
      by === 'address'
        ? `from this client address: at most ${p.perAddress}`
        : `for this ${NAMES[kind].identifier}: at most ${p.perIdentifier}`
    return {
      ok: false,
      by,
      retryAfterSeconds,
      detail: `Too many failed authentications ${what} in ${minutes} minutes. Retry after ${retryAfterSeconds} s.`,
      headers: {
        'retry-after': String(retryAfterSeconds),
        'ratelimit-policy': `"${names.address}";q=${p.perAddress};w=${p.windowSeconds}, "${names.identifier}";q=${p.perIdentifier};w=${p.windowSeconds}`,
        ratelimit: `"${names[by]}";r=0;t=${retryAfterSeconds}`,
      },
    }
  }

  return {
    async check(kind, subject) {
      const k = keys(kind, subject)
      const { guessable, perAddress, perIdentifier } = policies[kind]
      const byAddress = locked(k.address)
      if (byAddress !== undefined) return refusal(kind, 'address', byAddress)
      if (guessable) {
        const byIdentifier = locked(k.identifier)
        if (byIdentifier !== undefined) return refusal(kind, 'identifier', byIdentifier)
        const [address, identifier] = await Promise.all([
          limiter(kind, 'address').get(k.address),
          limiter(kind, 'identifier').get(k.identifier),
        ]).catch(storeFailed)
        if (identifier && identifier.consumedPoints >= perIdentifier)
          return refusal(kind, 'identifier', secondsOf(identifier.msBeforeNext))
        if (address && address.consumedPoints >= perAddress)
          return refusal(kind, 'address', secondsOf(address.msBeforeNext))
      }
      return { ok: true }
    },

    async failed(kind, subject) {
      const k = keys(kind, subject)
      const { guessable } = policies[kind]
      const [address, identifier] = await Promise.all([
        count(kind, 'address', k.address),
        count(kind, 'identifier', k.identifier),
      ])
      if ('error' in address) return storeFailed(address.error)
      if ('error' in identifier) return storeFailed(identifier.error)
      if (address.over) {
        const seconds = secondsOf(address.res.msBeforeNext)
        lock(k.address, seconds)
        return refusal(kind, 'address', seconds)
      }
      if (subject.identifier !== '' && identifier.over) {
        const seconds = secondsOf(identifier.res.msBeforeNext)
        if (guessable) lock(k.identifier, seconds)
        return refusal(kind, 'identifier', seconds)
      }
      return { ok: true }
    },

    async succeeded(kind, identifier) {
      if (!policies[kind].guessable) return
      const key = keys(kind, { address: '', identifier }).identifier
      locks.delete(key)
      await limiter(kind, 'identifier').delete(key)
    },
  }
}
