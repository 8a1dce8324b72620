/**
 * The one storage adapter for state several gateway processes must share:
 * the OpenID provider's grants, sessions, codes and registered clients, the
 * people who sign in, login throttling, webhooks, the audit trail. Files
 * under a git-ignored folder for `npm start`; Netlify Blobs on Netlify, where
 * functions are stateless and many; Redis for gateways on several machines. Values are JSON; each may expire. A write
 * that returned is durable; a store that cannot be used throws
 * StoreUnavailableError (store-errors.ts).
 */
export interface StateStore {
  /** The value under `key`, or undefined when there is none or it has expired. */
  get<T>(key: string): Promise<T | undefined>
  /** Store `value` under `key`; it expires after `ttlSeconds` when given. */
  set(key: string, value: unknown, ttlSeconds?: number): Promise<void>
  /**
   * Store `value` under `key` only when no record is there, expired or not (Redis forgets a record
   * once its expiry passes: the key is free again); true when this call wrote it. Atomic across processes and instances: of
   * two callers, exactly one gets true (leases and write-once records).
   */
  create(key: string, value: unknown, ttlSeconds?: number): Promise<boolean>
  /**
   * Read, change and write back the value under `key` as one step: `change` gets the current
   * value (undefined when there is none or it has expired) and returns the new one, or undefined
   * to leave the record as it is; what is stored afterwards is returned. No concurrent writer's
   * change is lost, in any process or instance: files hold the record's lock, Blobs write only
   * while the record is still the one read (its ETag) and else read it again, so `change` may run
   * more than once: keep it free of side effects. Every document of runtime data is written so.
   */
  update<T>(
    key: string,
    change: (current: T | undefined) => T | undefined | Promise<T | undefined>,
    ttlSeconds?: number,
  ): Promise<T | undefined>
  delete(key: string): Promise<void>
  /** A cheap token that changes whenever the record under `key` does (a stat, an ETag); undefined when there is none. */
  version(key: string): Promise<string | undefined>
  /**
   * The record under `key` as stored: its value and when it expires (epoch seconds), or undefined when
   * there is none or it has expired. For moving runtime data between stores with its lifetime.
   */
  record(key: string): Promise<StoredRecord | undefined>
  /** Every key that starts with `prefix` (a folder-like prefix ending in "/"), expired or not. */
  list(prefix: string): Promise<string[]>
  /** Where the state lives, for log lines and errors (never a secret). */
  readonly location: string
  /**
   * Delete expired records; returns how many. Every store has one (an expired
   * record is also deleted when it is read): nothing anyone leaves behind
   * stays past its lifetime and the next sweep.
   */
  sweep(options?: SweepOptions): Promise<number>
}

export interface SweepOptions {
  /** Stop after about this long; a store that reads each record resumes where it stopped on the next sweep. */
  budgetMs?: number
}

/** What is written for each key: the value and when it expires (epoch seconds). */
export interface StoredRecord {
  v: unknown
  exp?: number
}

export function toRecord(value: unknown, ttlSeconds: number | undefined, now = Date.now()): StoredRecord {
  if (ttlSeconds === undefined) return { v: value }
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0)
    throw new RangeError(`ttlSeconds must be positive, got ${ttlSeconds}`)
  // Rounded up: a value lives at least its TTL.
  return { v: value, exp: Math.ceil(now / 1000 + ttlSeconds) }
}

/** The value of a record read back, or undefined when it is malformed or expired. */
export function fromRecord<T>(record: unknown, now = Date.now()): T | undefined {
  if (!record || typeof record !== 'object' || !('v' in record)) return undefined
  const { v, exp } = record as StoredRecord
  if (typeof exp === 'number' && exp * 1000 <= now) return undefined
  return v as T
}

/** A record read back as it is stored (`{ v, exp }`), or undefined when it is malformed or expired. */
export function liveRecord(record: unknown, now = Date.now()): StoredRecord | undefined {
  if (!record || typeof record !== 'object' || !('v' in record) || isExpired(record, now)) return undefined
  const { v, exp } = record as StoredRecord
  return typeof exp === 'number' ? { v, exp } : { v }
}

/**
 * True only for a record in our format (`{ v, exp }`) whose time has passed:
 * anything else in a shared store (another writer's JSON with an `exp` of its
 * own) is never a sweep's to delete.
 */
export function isExpired(record: unknown, now = Date.now()): boolean {
  if (!record || typeof record !== 'object' || !('v' in record)) return false
  const { exp } = record as StoredRecord
  return typeof exp === 'number' && exp * 1000 <= now
}

/** Keys are `/`-separated; each segment non-empty. Checked by every store, so no key can name a path outside it. */
export function assertKey(key: string): void {
  if (
    key.length === 0 ||
    key.length > 512 ||
    key.startsWith('/') ||
    key.endsWith('/') ||
    key.split('/').some((s) => s === '')
  ) {
    throw new RangeError(`invalid state key "${key.slice(0, 80)}"`)
  }
}

export function assertPrefix(prefix: string): void {
  if (prefix !== '' && (!prefix.endsWith('/') || prefix.startsWith('/')))
    throw new RangeError(`invalid state key prefix "${prefix.slice(0, 80)}"`)
}

/**
 * A key segment spelled with letters, digits, "_", "-" and %XX escapes only
 * (dots too, so no segment is "." or ".." or hidden): safe as a file name
 * and as a Blobs key, and decoded back exactly when listed.
 */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(
    /[.!'()*~]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  )
}

export const decodeSegment = decodeURIComponent
