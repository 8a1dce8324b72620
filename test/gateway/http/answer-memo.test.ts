/**
 * The answers the fast path repeats (gateway/http/answer-memo.ts) are a
 * cache, so they stay within FILE_CACHE_MB however many distinct targets
 * clients ask for: a query string per request must not grow the gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recallAnswer } from '../../../gateway/http/answer-memo.ts'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'

const CACHE_MB = 1
/** Distinct targets asked for: their answers' headers alone come to more than the setting. */
const TARGETS = Array.from({ length: 2500 }, (_, i) => `/api/search?q=memo+bound+${i}`)

let gateway: BuiltGateway

beforeAll(async () => {
  gateway = await startBuiltGateway({
    env: { FILE_CACHE_MB: String(CACHE_MB), COMPUTED_RATE_LIMIT_PER_MINUTE: '1000000' },
  })
})
afterAll(async () => {
  await gateway?.close()
})

describe('the answer memo', () => {
  it('stays within FILE_CACHE_MB under many distinct queries, and still remembers the latest', async () => {
    for (const target of TARGETS) {
      const response = await fetch(gateway.url + target)
      expect(response.status, target).toBe(200)
      await response.arrayBuffer()
    }
    const snapshot = gateway.store.current()!
    // What each remembered answer holds at least: the strings of its headers.
    let remembered = 0
    let headerBytes = 0
    for (const target of TARGETS) {
      const answer = recallAnswer(snapshot, target)
      if (!answer) continue
      remembered++
      headerBytes += answer.headers.join('').length
    }
    expect(remembered).toBeGreaterThan(0)
    expect(remembered).toBeLessThan(TARGETS.length)
    expect(recallAnswer(snapshot, TARGETS.at(-1)!)).toBeDefined()
    expect(headerBytes).toBeLessThanOrEqual(CACHE_MB * 2 ** 20)
    expect(gateway.store.cache.totalBytes).toBeLessThanOrEqual(CACHE_MB * 2 ** 20)
  })
})
