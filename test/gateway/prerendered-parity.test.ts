import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { COLLECTION_NAMES, COLLECTIONS, FIXTURE_MODEL } from '../helpers/site.ts'
import { listFile } from '../../contract/paths.ts'
import { parseListQuery } from '../../contract/query.ts'
import { renderList } from '../../contract/render.ts'
import { useBuiltGateway } from '../helpers/gateway.ts'
import { copyOfBuiltFixture } from '../helpers/project.ts'

// Every limit of every collection, with page=1: far past one client's budget of computed answers, which is not what this tests.
const UNLIMITED = { env: { COMPUTED_RATE_LIMIT_PER_MINUTE: '0' } }

const ctx = useBuiltGateway(copyOfBuiltFixture, UNLIMITED)

describe('pre-rendered and gateway answers are the same bytes', () => {
  it.each(COLLECTION_NAMES)('%s: every limit 1..100, with and without page=1', async (collection) => {
    for (let limit = 1; limit <= 100; limit++) {
      const file = await readFile(join(ctx.project.dist, listFile(collection, limit)), 'utf8')
      const plain = await (await fetch(`${ctx.gateway.url}/api/${collection}?limit=${limit}`)).text()
      const page1 = await fetch(`${ctx.gateway.url}/api/${collection}?page=1&limit=${limit}`)
      expect(plain).toBe(file)
      expect(await page1.text()).toBe(file)
    }
    const noQuery = await (await fetch(`${ctx.gateway.url}/api/${collection}`)).text()
    expect(noQuery).toBe(await readFile(join(ctx.project.dist, listFile(collection, 10)), 'utf8'))
  })

  it.each(COLLECTION_NAMES)(
    '%s: the build assembles each list from its items’ JSON, the bytes renderList makes',
    async (collection) => {
      const summaries = ctx.gateway.store.current()!.summaries(collection)
      for (let limit = 1; limit <= 100; limit++) {
        const file = await readFile(join(ctx.project.dist, listFile(collection, limit)), 'utf8')
        expect(file).toBe(renderList(COLLECTIONS[collection]!, summaries, { limit, page: 1, tag: undefined }))
      }
    },
  )

  it.each([
    ['blog-posts', 'limit=3&sort=title&fields=title,slug,image'],
    ['blog-posts', 'author=jose-nunez&published_after=2025-06-30'],
    ['case-studies', 'tag=finops,lineage,data-contracts&exclude=cobalt-and-pine-finops'],
    ['events', 'when=past&sort=-ends_at&page=2&limit=2'],
    ['webinars', 'published_before=2026-01-01T00:00:00Z&sort=starts_at'],
  ] as const)('%s?%s: the computed answer is the renderer’s bytes for the parsed query', async (collection, query) => {
    const summaries = ctx.gateway.store.current()!.summaries(collection)
    const parsed = parseListQuery(new URLSearchParams(query), COLLECTIONS[collection]!, FIXTURE_MODEL)
    expect(parsed.ok).toBe(true)
    const res = await fetch(`${ctx.gateway.url}/api/${collection}?${query}`)
    expect(await res.text()).toBe(
      renderList(COLLECTIONS[collection]!, summaries, parsed.ok ? parsed.query : never(), Date.now()),
    )
  })

  it('renders the long tail with the same renderer the build used', async () => {
    const snapshot = ctx.gateway.store.current()!
    const summaries = snapshot.summaries('blog-posts')
    const res = await fetch(`${ctx.gateway.url}/api/blog-posts?limit=3&page=2`)
    expect(await res.text()).toBe(
      renderList(COLLECTIONS['blog-posts']!, summaries, { limit: 3, page: 2, tag: undefined }),
    )
  })
})

function never(): never {
  throw new Error('the query does not parse')
}
