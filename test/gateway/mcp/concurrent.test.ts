/**
 * Requests answered at once: the gateway keeps its MCP servers across
 * requests (gateway/mcp/server-pool.ts), so many calls in flight together,
 * of both protocol eras, must each get their own answer, never another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_HEADERS, MODERN, MODERN_META, startMcpGateway, type McpTestGateway } from './setup.ts'

let t: McpTestGateway
beforeAll(async () => {
  t = await startMcpGateway()
})
afterAll(() => t?.close())

const META = MODERN_META

interface Answer {
  id?: unknown
  result?: { structuredContent?: Record<string, unknown>; isError?: boolean }
}

/** One tools/call over HTTP: a 2025-era request (no envelope) or a 2026-07-28 one (envelope and standard headers). */
async function call(
  era: 'legacy' | 'modern',
  id: number,
  name: string,
  args: Record<string, unknown>,
): Promise<Answer> {
  const headers: Record<string, string> = { ...MCP_HEADERS, authorization: `Bearer ${t.agentKey}` }
  const params: Record<string, unknown> = { name, arguments: args }
  if (era === 'modern') {
    Object.assign(headers, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name })
    params._meta = META
  }
  const res = await fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
  })
  expect(res.status).toBe(200)
  return (await res.json()) as Answer
}

describe('calls in flight together', () => {
  it('each get their own item, of either era', async () => {
    const listed = (await (await fetch(`${t.url}/api/blog-posts?limit=100`)).json()) as { data: { slug: string }[] }
    const slugs = listed.data.map((r) => r.slug)
    expect(slugs.length).toBeGreaterThan(3)
    const asked = Array.from({ length: 40 }, (_, i) => ({
      id: 100 + i,
      era: i % 2 === 0 ? ('legacy' as const) : ('modern' as const),
      slug: slugs[i % slugs.length]!,
    }))
    const answers = await Promise.all(
      asked.map((a) => call(a.era, a.id, 'get_content', { collection: 'blog-posts', slug: a.slug })),
    )
    for (const [i, answer] of answers.entries()) {
      expect(answer.id).toBe(asked[i]!.id)
      expect(answer.result?.isError).toBeFalsy()
      expect(answer.result?.structuredContent?.slug).toBe(asked[i]!.slug)
    }
  })

  it('each get the results of their own search', async () => {
    const queries = ['data', 'pipeline', 'warehouse', 'customer', 'schema', 'quality', 'team', 'cost']
    const asked = Array.from({ length: 32 }, (_, i) => ({
      id: 200 + i,
      era: i % 3 === 0 ? ('modern' as const) : ('legacy' as const),
      query: queries[i % queries.length]!,
      limit: 1 + (i % 5),
    }))
    const answers = await Promise.all(
      asked.map((a) => call(a.era, a.id, 'search_content', { query: a.query, limit: a.limit })),
    )
    // The same call asked alone, one at a time (in the same era: a 2026-07-28 result says more): what each answer
    // in flight must equal.
    const keyOf = (a: (typeof asked)[number]) => `${a.era}/${a.query}/${a.limit}`
    const alone = new Map<string, unknown>()
    for (const a of asked) {
      const key = keyOf(a)
      if (!alone.has(key))
        alone.set(key, (await call(a.era, 1, 'search_content', { query: a.query, limit: a.limit })).result)
    }
    for (const [i, answer] of answers.entries()) {
      const a = asked[i]!
      expect(answer.id).toBe(a.id)
      expect(answer.result?.structuredContent?.query).toBe(a.query)
      expect(answer.result).toEqual(alone.get(keyOf(a)))
    }
  })
})
