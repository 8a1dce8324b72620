/**
 * A real state store that answers one call late, as a store under load does
 * (or a process that froze just after making the call): the `nth` call of
 * `method` on a key starting with `match` is made at once, and its answer
 * comes back when the test releases it; every other call goes straight
 * through. What happens meanwhile, and after, is the production code's own
 * doing.
 */
import type { StateStore } from '../../../gateway/auth/store/state-store.ts'

type Method = 'get' | 'set' | 'create' | 'update' | 'delete' | 'list' | 'version'

export interface HeldStore {
  store: StateStore
  /** Resolves when the call has been made and its answer is being held. */
  reached: Promise<void>
  release(): void
}

export function holdOneCall(store: StateStore, method: Method, match: string, nth = 1): HeldStore {
  let reached!: () => void
  let release!: () => void
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve))
  const released = new Promise<void>((resolve) => (release = resolve))
  let calls = 0
  const late = async <T>(called: Method, key: string, call: () => Promise<T>): Promise<T> => {
    const answer = await call()
    if (called === method && key.startsWith(match) && ++calls === nth) {
      reached()
      await released
    }
    return answer
  }
  return {
    reached: reachedPromise,
    release,
    store: {
      location: store.location,
      sweep: (options) => store.sweep(options),
      get: <T>(key: string) => late('get', key, () => store.get<T>(key)),
      record: (key) => late('get', key, () => store.record(key)),
      set: (key, value, ttl) => late('set', key, () => store.set(key, value, ttl)),
      create: (key, value, ttl) => late('create', key, () => store.create(key, value, ttl)),
      update: (key, change, ttl) => late('update', key, () => store.update(key, change, ttl)),
      delete: (key) => late('delete', key, () => store.delete(key)),
      version: (key) => late('version', key, () => store.version(key)),
      list: (prefix) => late('list', prefix, () => store.list(prefix)),
    },
  }
}
