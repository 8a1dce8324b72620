/**
 * The queue images are processed through (build/media/limit.ts): at most
 * its size at a time whatever the number waiting, started in the order
 * asked, and a failed task frees its place. What bounds the build's images
 * in flight (each a decoded image and its encodes) is this count, not time.
 */
import { describe, expect, it } from 'vitest'
import { Limit } from '../../../build/media/limit.ts'

/** A task that runs until released, recording when it starts. */
function gated(started: number[], index: number, active: { now: number; most: number }) {
  let release!: (fail?: boolean) => void
  const done = new Promise<boolean>((resolve) => (release = (fail = false) => resolve(fail)))
  const task = async () => {
    started.push(index)
    active.most = Math.max(active.most, ++active.now)
    const fail = await done
    active.now--
    if (fail) throw new Error(`task ${index} failed`)
    return index
  }
  return { task, release }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('the processing queue', () => {
  it('runs at most its size at a time, in the order asked, and a failed task frees its place', async () => {
    const limit = new Limit(3)
    const started: number[] = []
    const active = { now: 0, most: 0 }
    const tasks = Array.from({ length: 40 }, (_, i) => gated(started, i, active))
    const results = tasks.map(({ task }) => limit.run(task).catch((error: Error) => error.message))
    await settle()
    expect(started).toEqual([0, 1, 2])
    // Released out of order, some failing: the places free up one by one, never more than three busy.
    for (const i of [1, 0, 2]) tasks[i]!.release(i === 0)
    await settle()
    expect(started).toEqual([0, 1, 2, 3, 4, 5])
    for (let i = 39; i >= 3; i--) tasks[i]!.release(i % 7 === 0)
    for (let round = 0; round < 40; round++) await settle()
    expect(active.most).toBe(3)
    expect(started).toEqual(Array.from({ length: 40 }, (_, i) => i))
    expect(await Promise.all(results)).toEqual(
      Array.from({ length: 40 }, (_, i) => (i === 0 || (i >= 3 && i % 7 === 0) ? `task ${i} failed` : i)),
    )
  })
})
