/**
 * The sender's scheduling (gateway/webhooks/turns.ts), on turns the test
 * controls: endpoints take turns, a bounded number at once; one with more to
 * do waits behind the others; one that never finishes a turn holds only its
 * own place; one that throws stops no other.
 */
import { describe, expect, it } from 'vitest'
import { inTurns } from '../../../gateway/webhooks/turns.ts'

describe('turns', () => {
  it('sends an endpoint with more to do to the back of the line', async () => {
    const order: string[] = []
    const left: Record<string, number> = { a: 3, b: 1, c: 2 }
    await inTurns(['a', 'b', 'c'], 1, async (item) => {
      order.push(item)
      left[item]!--
      return left[item]! > 0
    })
    expect(order.join('')).toBe('abcaca')
  })

  it('runs at most `concurrency` turns at once, and never two of one endpoint', async () => {
    let running = 0
    let most = 0
    const active = new Set<string>()
    const turns: Record<string, number> = { a: 0, b: 0, c: 0, d: 0, e: 0 }
    await inTurns(Object.keys(turns), 3, async (item) => {
      expect(active.has(item)).toBe(false)
      active.add(item)
      most = Math.max(most, ++running)
      await new Promise((resolve) => setImmediate(resolve))
      running--
      active.delete(item)
      return ++turns[item]! < 4
    })
    expect(most).toBe(3)
    expect(Object.values(turns)).toEqual([4, 4, 4, 4, 4])
  })

  it('lets the others finish while one turn waits for them', async () => {
    let othersDone!: () => void
    const waiting = new Promise<void>((resolve) => (othersDone = resolve))
    const finished: string[] = []
    await inTurns(['slow', 'x', 'y'], 2, async (item) => {
      if (item === 'slow') await waiting
      finished.push(item)
      if (finished.includes('x') && finished.includes('y')) othersDone()
      return false
    })
    expect(finished).toEqual(['x', 'y', 'slow'])
  })

  it('throws the first failure once the other turns have ended', async () => {
    const done: string[] = []
    const run = inTurns(['bad', 'good', 'later'], 2, async (item) => {
      if (item === 'bad') throw new Error('store down')
      await new Promise((resolve) => setImmediate(resolve))
      done.push(item)
      return false
    })
    await expect(run).rejects.toThrow('store down')
    expect(done.sort()).toEqual(['good', 'later'])
  })
})
