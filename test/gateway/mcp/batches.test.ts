/**
 * JSON-RPC batches at /mcp: under protocol revision 2025-03-26 (the one
 * that has them, and the one a request without MCP-Protocol-Version is
 * taken to speak) each message draws from the MCP budget, and a batch
 * larger than what is left is a 429 for the whole batch; every other
 * revision refuses a batch with a 400 JSON-RPC error. In process, through
 * the gateway's own fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { problemDefect } from '../../helpers/problem-assert.ts'
import { rateLimitFields } from '../../helpers/ratelimit-fields.ts'
import { MCP_HEADERS } from './setup.ts'

const BUDGET = 60

let t: BuiltGateway

beforeAll(async () => {
  t = await startBuiltGateway({
    keys: { a: 'agent.mcp', b: 'agent.mcp', c: 'agent.mcp' },
    env: { RATE_LIMIT_PER_MINUTE: String(BUDGET), TRUST_PROXY: 'x-forwarded-for' },
  })
})
afterAll(() => t?.close())

const toolCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'list_content', arguments: { collection: 'blog-posts', limit: 1 } },
})
const batchOf = (n: number) => Array.from({ length: n }, (_, i) => toolCall(i + 1))

/** POST /mcp from its own address (so each test has its own budget) with `key`. */
function post(address: string, key: string, body: unknown, revision?: string) {
  const headers: Record<string, string> = {
    ...MCP_HEADERS,
    authorization: `Bearer ${t.keys[key]}`,
    'x-forwarded-for': address,
    host: new URL(t.url).host,
  }
  if (revision) headers['mcp-protocol-version'] = revision
  return t.gateway.fetch(new Request(`${t.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) }))
}

/** What is left of the address's and the credential's budgets, from the answer's RateLimit field. */
function left(res: Response): { ip: number; credential: number } {
  const fields = rateLimitFields(res.headers.get('ratelimit'))
  return { ip: fields.ip!.r!, credential: fields.credential!.r! }
}

describe.each([
  ['without MCP-Protocol-Version', undefined, '203.0.113.1', 'a'],
  ['under 2025-03-26', '2025-03-26', '203.0.113.2', 'b'],
])('a batch of tool calls %s', (_, revision, address, key) => {
  it('draws one per message from the budget, and answers each', async () => {
    const res = await post(address, key, batchOf(10), revision)
    expect(res.status).toBe(200)
    const answers = (await res.json()) as { id: number; result?: unknown }[]
    expect(answers.map((a) => a.id).sort((x, y) => x - y)).toEqual(batchOf(10).map((m) => m.id))
    expect(answers.every((a) => a.result !== undefined)).toBe(true)
    expect(left(res)).toEqual({ ip: BUDGET - 10, credential: BUDGET - 10 })

    const one = await post(address, key, toolCall(99), revision)
    expect(one.status).toBe(200)
    expect(left(one)).toEqual({ ip: BUDGET - 11, credential: BUDGET - 11 })
  })

  it('larger than what is left is a 429 for the whole batch; one that fits still passes', async () => {
    const remaining = BUDGET - 11
    const over = await post(address, key, batchOf(remaining + 1), revision)
    const text = await over.text()
    expect(over.status).toBe(429)
    expect(problemDefect(429, over.headers.get('content-type'), text)).toBeUndefined()
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // None of its calls ran or counted; the request itself did, as any request does.
    expect(rateLimitFields(over.headers.get('ratelimit')).ip!.r).toBe(remaining - 1)

    const fits = await post(address, key, batchOf(remaining - 1), revision)
    expect(fits.status).toBe(200)
    expect(left(fits)).toEqual({ ip: 0, credential: 0 })
    expect((await post(address, key, toolCall(1), revision)).status).toBe(429)
  })
})

describe('revisions without batches', () => {
  it.each(['2025-06-18', '2025-11-25', '2026-07-28'])(
    'refuse a batch under %s with a 400 JSON-RPC error, drawing only the request',
    async (revision) => {
      const address = `198.51.100.${revision.slice(-2)}`
      const res = await post(address, 'c', batchOf(5), revision)
      expect(res.status).toBe(400)
      const body = (await res.json()) as { jsonrpc: string; id: null; error: { code: number; message: string } }
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
      expect(body.error.message).toContain(`revision ${revision} has no JSON-RPC batches`)
      expect(left(res).ip).toBe(BUDGET - 1)
    },
  )
})
