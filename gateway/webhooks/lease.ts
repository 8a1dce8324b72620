/**
 * Leases that let many gateway processes and function instances share the
 * work: one sender per endpoint at a time (so its messages go out in order and
 * once), one dispatcher per build. Time is cut into slots of LEASE_MS; a
 * slot's lease is a record created once (`create`: one winner). The holder
 * takes the next slot before its own ends, so others find it taken; when the
 * holder dies, its slot passes and the next one is free. A key is never
 * reused, so an expired lease is never contended; old slots are deleted by
 * whoever holds the name next.
 */
import { randomBytes } from 'node:crypto'
import type { StateStore } from '../auth/store/state-store.ts'

export const LEASE_MS = 60_000

/** This process's name in leases. */
export const OWNER = `${process.pid}-${randomBytes(4).toString('hex')}`

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

/** Hold `name` now, or undefined when another holds it. */
export async function acquire(
  store: StateStore,
  name: string,
  now: () => number,
  owner = OWNER,
): Promise<Lease | undefined> {
  let slot = Math.floor(now() / LEASE_MS)
  if (!(await take(store, name, slot, owner))) return undefined
  // Slots left by earlier holders (a dead one's among them).
  for (const key of await store.list(prefixOf(name))) if (key < slotKey(name, slot)) await store.delete(key)
  let held = slot
  return {
    until: () => (held + 1) * LEASE_MS,
    async extend(ms) {
      const needed = Math.floor((now() + ms) / LEASE_MS)
      slot = Math.floor(now() / LEASE_MS)
      if (slot > held) return false
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
