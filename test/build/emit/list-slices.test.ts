/**
 * listSlices makes the pre-rendered list slices as prefixes of one another;
 * each must be byte for byte, ETag for ETag, what rendering it alone gives
 * (renderListFrom), for lists shorter and longer than the largest limit, for
 * a locale's list, for the slices asked for only, and for queries that do
 * not extend one another (pages after the first).
 */
import { describe, expect, it } from 'vitest'
import { buildFile } from '../../../contract/etag.ts'
import { PRERENDERED_LIMITS } from '../../../contract/paths.ts'
import type { ListQuery } from '../../../contract/query.ts'
import type { ContentRecord } from '../../../contract/records.ts'
import { renderListFrom } from '../../../contract/render.ts'
import { listSlices } from '../../../build/emit/list-slices.ts'
import { COLLECTIONS } from '../../helpers/site.ts'

const records = (count: number): ContentRecord[] =>
  Array.from(
    { length: count },
    (_, i) =>
      ({
        slug: `post-${i}`,
        title: `Post ${i}: “quoted”, ünïcode — and a \\ backslash`,
        tags: i % 3 ? ['data'] : [],
        published_at: new Date(Date.UTC(2026, 0, 1) - i * 86_400_000).toISOString(),
      }) as unknown as ContentRecord,
  )

const json = (item: ContentRecord) => JSON.stringify(item)

function expectSame(items: ContentRecord[], queries: ListQuery[], wanted?: (i: number) => boolean): void {
  const made = listSlices(COLLECTIONS['blog-posts']!, items, queries, json, wanted)
  expect(made).toHaveLength(queries.length)
  for (const [i, query] of queries.entries()) {
    if (wanted && !wanted(i)) {
      expect(made[i]).toBeUndefined()
      continue
    }
    const alone = buildFile(renderListFrom(COLLECTIONS['blog-posts']!, items, query, json))
    expect(made[i]!.body.toString(), `query ${JSON.stringify(query)}`).toBe(alone.body.toString())
    expect(made[i]!.etag).toBe(alone.etag)
  }
}

const pageOne = (locale?: string): ListQuery[] =>
  PRERENDERED_LIMITS.map((limit) => ({ limit, page: 1, tag: undefined, ...(locale && { locale }) }) as ListQuery)

describe('listSlices', () => {
  for (const count of [0, 1, 37, 100, 250])
    it(`gives renderListFrom's bytes for every limit of a list of ${count}`, () =>
      expectSame(records(count), pageOne()))

  it("gives them for a locale's list, and only for the slices asked for", () => {
    expectSame(records(120), pageOne('de'))
    expectSame(records(120), pageOne(), (i) => i % 7 === 3 || i > 90)
  })

  it('starts again where a query does not extend the one before', () => {
    const queries = [3, 2, 1].flatMap((page) => [5, 10].map((limit) => ({ limit, page, tag: undefined }) as ListQuery))
    expectSame(records(40), queries)
  })
})
