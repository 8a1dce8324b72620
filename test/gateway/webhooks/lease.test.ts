/**
 * The leases that keep one sender per endpoint and one dispatcher per build
 * (gateway/webhooks/lease.ts), on a real files store and a clock the test
 * moves: a holder excludes every other, in this process too; a new lease
 * lasts at least half a slot, even taken at a slot's last moment or through a
 * store that answered after the slot ended; one that slept past its slots is
 * lost, and another takes the name.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openFileStore } from '../../../gateway/auth/store/file-store.ts'
import type { StateStore } from '../../../gateway/auth/store/state-store.ts'
import { acquire, LEASE_MS } from '../../../gateway/webhooks/lease.ts'
import { holdOneCall } from './held-store.ts'

let dir: string
let store: StateStore
/** The start of a slot, far from the real clock. */
const SLOT = 30_000_000 * LEASE_MS

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lease-'))
  store = openFileStore(dir)
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('leases', () => {
  it('excludes a second holder, in this process too, until released', async () => {
    const clock = { now: SLOT + 1_000 }
    const now = () => clock.now
    const first = await acquire(store, 'one', now)
    expect(first).toBeDefined()
    expect(await acquire(store, 'one', now)).toBeUndefined()
    await first!.release()
    const second = await acquire(store, 'one', now)
    expect(second).toBeDefined()
    await second!.release()
  })

  it('lasts at least half a slot when taken at the end of one', async () => {
    const clock = { now: SLOT + LEASE_MS - 100 }
    const lease = await acquire(store, 'late', () => clock.now)
    expect(lease!.until()).toBeGreaterThanOrEqual(clock.now + LEASE_MS / 2)
    // Others find it held in the next slot too.
    clock.now += 200
    expect(await acquire(store, 'late', () => clock.now)).toBeUndefined()
    await lease!.release()
  })

  it('takes the current slot when the store answered after the one it asked for had ended', async () => {
    const clock = { now: SLOT + 10_000 }
    const slow = holdOneCall(store, 'create', 'webhooks/leases/slow/')
    const taking = acquire(slow.store, 'slow', () => clock.now)
    await slow.reached
    clock.now += LEASE_MS
    slow.release()
    const lease = await taking
    expect(lease).toBeDefined()
    expect(lease!.until()).toBeGreaterThanOrEqual(clock.now + LEASE_MS / 2)
    await lease!.release()
  })

  it('is lost by a holder that slept past its slots, and taken by another', async () => {
    const clock = { now: SLOT + 1_000 }
    const sleeper = await acquire(store, 'sleep', () => clock.now)
    clock.now += 3 * LEASE_MS
    const other = await acquire(store, 'sleep', () => clock.now)
    expect(other).toBeDefined()
    expect(await sleeper!.extend(1_000)).toBe(false)
    expect(await other!.extend(LEASE_MS)).toBe(true)
    await sleeper!.release()
    // The sleeper's release leaves the other's slots alone.
    expect(await acquire(store, 'sleep', () => clock.now)).toBeUndefined()
    await other!.release()
  })
})
