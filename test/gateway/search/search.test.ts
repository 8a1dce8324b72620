/**
 * GET /api/search on the repository's content, as `npm start` mounts it:
 * the MCP search tool's ranking (asked through the SDK client), the list
 * envelope with score and snippet, filters, pages, validation, caching, and
 * `/api/search` never taken for a collection.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { RESERVED_API_NAMES } from '../../../contract/public-paths.ts'
import { MAX_QUERY_LENGTH } from '../../../contract/search.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'

interface Hit {
  id: string
  collection: string
  slug: string
  title: string
  tags: string[]
  href: string
  score: number
  snippet: string
  matched_terms: string[]
}
interface Results {
  data: Hit[]
  meta: { query: string; limit: number; page: number; count: number; total: number; pages: number }
  links: { self: string; next: string | null; prev: string | null }
}

let full: BuiltGateway
let client: Client

beforeAll(async () => {
  full = await startBuiltGateway({ keys: { agent: 'agent.mcp' } })
  client = new Client({ name: 'search-tests', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${full.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${full.keys.agent}` } },
    }),
  )
})
afterAll(async () => {
  await client?.close()
  await full?.close()
})

async function search(query: string, status = 200): Promise<{ response: Response; body: Results }> {
  const path = `/api/search${query}`
  const response = await fetch(`${full.url}${path}`)
  await assertMatchesContract('GET', path, response)
  expect(response.status, path).toBe(status)
  return { response, body: (await response.clone().json()) as Results }
}

describe('GET /api/search', () => {
  it("ranks as the MCP search tool does, with a score, a snippet and the item's href per hit", async () => {
    for (const q of ['lineage', 'data contracts', 'kafka schema drift', 'ledger reconciliation']) {
      const { body, response } = await search(`?q=${encodeURIComponent(q)}&limit=25`)
      const tool = await client.callTool({ name: 'search_content', arguments: { query: q, limit: 25 } })
      const results = tool.structuredContent as {
        total: number
        results: { slug: string; collection: string; score: number; snippet: string }[]
      }
      expect(
        body.data.map((h) => `${h.collection}/${h.slug}`),
        q,
      ).toEqual(results.results.map((r) => `${r.collection}/${r.slug}`))
      expect(body.data.map((h) => h.score)).toEqual(results.results.map((r) => r.score))
      expect(body.meta.total).toBe(results.total)
      expect(response.headers.get('x-total-count')).toBe(String(body.meta.total))
      expect(body.data.length).toBeGreaterThan(0)
      for (const hit of body.data) {
        expect(hit.snippet.length).toBeGreaterThan(0)
        const item = await fetch(`${full.url}${hit.href}`)
        expect(item.status).toBe(200)
        expect(((await item.json()) as { id: string }).id).toBe(hit.id)
      }
      const scores = body.data.map((h) => h.score)
      expect(scores).toEqual([...scores].sort((a, b) => b - a))
    }
  })

  it('filters by collection and tag, and pages with limit and page', async () => {
    const all = (await search('?q=data&limit=100')).body
    expect(all.meta.total).toBeGreaterThan(4)
    const events = (await search('?q=data&collection=events&limit=100')).body
    expect(events.data.every((h) => h.collection === 'events')).toBe(true)
    expect(events.data.map((h) => h.slug)).toEqual(all.data.filter((h) => h.collection === 'events').map((h) => h.slug))
    const tag = all.data[0]!.tags[0]!
    const tagged = (await search(`?q=data&tag=${tag}&limit=100`)).body
    expect(tagged.data.length).toBeGreaterThan(0)
    expect(tagged.data.every((h) => h.tags.includes(tag))).toBe(true)
    expect(tagged.data.map((h) => h.slug)).toEqual(all.data.filter((h) => h.tags.includes(tag)).map((h) => h.slug))
    const first = await search('?q=data&limit=2')
    const second = (await search('?q=data&limit=2&page=2')).body
    expect(first.body.meta).toMatchObject({
      limit: 2,
      page: 1,
      count: 2,
      total: all.meta.total,
      pages: Math.ceil(all.meta.total / 2),
    })
    expect([...first.body.data, ...second.data].map((h) => h.slug)).toEqual(all.data.slice(0, 4).map((h) => h.slug))
    expect(first.body.links.next).toBe('/api/search?q=data&limit=2&page=2')
    expect(first.response.headers.get('link')).toBe('</api/search?q=data&limit=2&page=2>; rel="next"')
    expect(second.links.prev).toBe('/api/search?q=data&limit=2')
    const past = (await search('?q=data&page=999')).body
    expect(past.data).toEqual([])
    expect((await search('?q=zzqqxxnothingmatches')).body.meta).toMatchObject({ total: 0, count: 0, pages: 0 })
  })

  it('answers 400 problems for a missing, empty, too long or repeated q, and bad filters', async () => {
    const cases: [string, string][] = [
      ['', 'q'],
      ['?q=', 'q'],
      ['?q=%20%20', 'q'],
      [`?q=${'a'.repeat(MAX_QUERY_LENGTH + 1)}`, 'q'],
      ['?q=a&q=b', 'q'],
      ['?q=data&collection=nope', 'collection'],
      ['?q=data&tag=Not_A_Tag', 'tag'],
      ['?q=data&limit=0', 'limit'],
      ['?q=data&limit=101', 'limit'],
      ['?q=data&page=0', 'page'],
    ]
    for (const [query, parameter] of cases) {
      const response = await fetch(`${full.url}/api/search${query}`)
      await assertMatchesContract('GET', `/api/search${query}`, response)
      expect(response.status, query).toBe(400)
      const problem = (await response.json()) as { type: string; errors: { parameter: string }[] }
      expect(problem.type).toBe('/problems/invalid-parameter')
      expect(
        problem.errors.map((e) => e.parameter),
        query,
      ).toContain(parameter)
    }
    expect((await search(`?q=${'a'.repeat(MAX_QUERY_LENGTH)}`)).response.status).toBe(200)
  })

  it('is cacheable like the long tail of lists: ETag, Cache-Control, 304, HEAD', async () => {
    const { response } = await search('?q=lineage')
    expect(response.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600')
    const etag = response.headers.get('etag')!
    const again = await fetch(`${full.url}/api/search?q=lineage`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    const head = await fetch(`${full.url}/api/search?q=lineage`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const post = await fetch(`${full.url}/api/search?q=lineage`, { method: 'POST' })
    expect(post.status).toBe(405)
  })

  it('is never a collection: search and changes are reserved names under /api/', async () => {
    for (const name of RESERVED_API_NAMES) expect(COLLECTION_NAMES as readonly string[]).not.toContain(name)
    const changes = await fetch(`${full.url}/api/changes`)
    expect(changes.status).toBe(200)
    expect(((await changes.json()) as { meta: { next_cursor: string } }).meta.next_cursor).toBeTruthy()
    // Below a reserved name there is nothing (not an item of a collection called "search").
    expect((await fetch(`${full.url}/api/search/lineage`)).status).toBe(404)
  })
})
