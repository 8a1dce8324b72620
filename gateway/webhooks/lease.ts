/**
 * Leases that let many gateway processes and function instances share the
 * work: one sender per endpoint at a time (so its messages go out in order and
 * once), one dispatcher per build. Time is cut into slots of LEASE_MS; a
 * slot's lease is a record created once (`create`: one winner). The holder
 * takes the next slot before its own ends, so others find it taken; when the
 * holder dies, its slot passes and the next one is free. A key is never
 * reused, so an expired lease is never contended; old slots are deleted by
 * whoever holds the name next.
 *
 * Each acquisition is an owner of its own (this process's name and a count),
 * so two holders in one process exclude each other as two processes do, and
 * a holder whose slot passed while it was stalled finds out at its next
 * `extend` instead of renewing a slot another holder has taken.
 */
import { randomBytes } from 'node:crypto'
import type { StateStore } from '../auth/store/state-store.ts'

export const LEASE_MS = 60_000

/** This process's name in leases. */
const PROCESS = `${process.pid}-${randomBytes(4).toString('hex')}`
let acquisitions = 0

export interface Lease {
  /** Until when it is held (ms), after a successful renew if needed. */
  until(): number
  /** Make sure it is held for at least `ms` more; false when it was lost. */
  extend(ms: number): Promise<boolean>
  release(): Promise<void>
}

const prefixOf = (name: string) => `webhooks/leases/${name}/`
const slotKey = (name: string, slot: number) => `${prefixOf(name)}${String(slot).padStart(12, '0')}`
const TTL_SECONDS = Math.ceil((3 * LEASE_MS) / 1000)

async function take(store: StateStore, name: string, slot: number, owner: string): Promise<boolean> {
  if (await store.create(slotKey(name, slot), { owner }, TTL_SECONDS)) return true
  return (await store.get<{ owner: string }>(slotKey(name, slot)))?.owner === owner
}

/**
 * Hold `name` now, for at least half a slot (LEASE_MS / 2: the next slot is
 * taken too when the current one ends sooner), or undefined when another
 * holds it. A slot that ended while the store was taking it (a slow store)
 * is no lease: the one current then is tried instead, a few times.
 */
export async function acquire(store: StateStore, name: string, now: () => number): Promise<Lease | undefined> {
  const owner = `${PROCESS}-${++acquisitions}`
  for (let tries = 0; tries < 3; tries++) {
    const slot = Math.floor(now() / LEASE_MS)
    if (!(await take(store, name, slot, owner))) return undefined
    const lease = holding(store, name, now, owner, slot)
    if (await lease.extend(LEASE_MS / 2)) {
      // Slots left by earlier holders (a dead one's among them).
      for (const key of await store.list(prefixOf(name))) if (key < slotKey(name, slot)) await store.delete(key)
      return lease
    }
    await lease.release()
  }
  return undefined
}

/** The lease of `owner`, who holds `name` in `slot`. */
function holding(store: StateStore, name: string, now: () => number, owner: string, slot: number): Lease {
  let held = slot
  return {
    until: () => (held + 1) * LEASE_MS,
    async extend(ms) {
      const needed = Math.floor((now() + ms) / LEASE_MS)
      // A slot passed that it did not hold: another may have held it meanwhile.
      if (Math.floor(now() / LEASE_MS) > held) return false
      while (held < needed) {
        if (!(await take(store, name, held + 1, owner))) return false
        held++
      }
      return true
    },
    async release() {
      for (let s = Math.floor(now() / LEASE_MS); s <= held; s++) await store.delete(slotKey(name, s))
    },
  }
}
