/**
 * Searches at the same time on one index: each hit keeps its own query's
 * score. The index keeps one set of score arrays that each search reuses; a
 * hit reads its item file (here from disk, FILE_CACHE_MB=0) after ranking,
 * and another search may rank in between.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'

interface Results {
  data: { slug: string; score: number }[]
  meta: { total: number }
}

const QUERIES = ['lineage', 'data contracts', 'kafka schema drift', 'ledger reconciliation', 'warehouse', 'webinar']

let gateway: BuiltGateway

beforeAll(async () => {
  gateway = await startBuiltGateway({ env: { FILE_CACHE_MB: '0' } })
})
afterAll(async () => {
  await gateway?.close()
})

async function searchOf(query: string, limit: number): Promise<Results> {
  const response = await fetch(`${gateway.url}/api/search?q=${encodeURIComponent(query)}&limit=${limit}`)
  expect(response.status, query).toBe(200)
  return (await response.json()) as Results
}

describe('concurrent searches', () => {
  it('give each hit the score its own query ranked it by', async () => {
    const alone = new Map<string, Results>()
    for (const q of QUERIES) alone.set(q, await searchOf(q, 5))
    // Other targets than the ones above (a new limit): computed again, all at once, several times over.
    for (let round = 0; round < 3; round++) {
      const together = await Promise.all(QUERIES.map((q) => searchOf(q, 4 + round * 2)))
      for (const [i, q] of QUERIES.entries()) {
        const expected = alone.get(q)!
        const got = together[i]!
        expect(got.meta.total, q).toBe(expected.meta.total)
        const n = Math.min(got.data.length, expected.data.length)
        expect(got.data.slice(0, n), q).toEqual(
          expected.data.slice(0, n).map((h) => expect.objectContaining({ slug: h.slug, score: h.score })),
        )
      }
    }
  })
})
