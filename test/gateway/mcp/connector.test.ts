/**
 * The connector pair that ChatGPT connectors and deep research call by name:
 * `search` (one string `query` → `{results: [{id, title, url}]}`) and `fetch`
 * (one string `id` → `{id, title, text, url, metadata}`), each answered as
 * structured content and as one JSON text item; checked in both protocol
 * eras against what REST says about the same items.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectClient, ERAS, startMcpGateway, type McpClient, type McpTestGateway } from './setup.ts'

const STUDY = 'meridian-mutual-ledger-reconciliation'
const ajv = new Ajv2020({ strict: false, allErrors: true })

let t: McpTestGateway
beforeAll(async () => {
  t = await startMcpGateway()
})
afterAll(() => t?.close())

type Item = { id: string; title: string; url: string; body: { markdown: string } }
const item = async (path: string): Promise<Item> => (await (await fetch(`${t.url}/api/${path}`)).json()) as Item

describe.each(ERAS)('$protocol ($client)', ({ era }) => {
  let client: McpClient
  let outputSchemas: Map<string, object>
  beforeAll(async () => {
    client = await connectClient(t.url, t.agentKey, era)
    const { tools } = await client.listTools()
    outputSchemas = new Map(tools.map((tool) => [tool.name, tool.outputSchema as object]))
  })
  afterAll(() => client?.close())

  /** A successful call: its structured content matches the outputSchema and is exactly the one JSON text item. */
  async function call(name: 'search' | 'fetch', args: Record<string, string>): Promise<Record<string, unknown>> {
    const result = await client.callTool({ name, arguments: args })
    expect(result.isError ?? false).toBe(false)
    const validate = ajv.compile(outputSchemas.get(name)!)
    expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true)
    const content = result.content as { type: string; text: string }[]
    expect(content).toHaveLength(1)
    expect(content[0]!.type).toBe('text')
    expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent)
    return result.structuredContent as Record<string, unknown>
  }

  it('lists search and fetch with one required string argument each, read-only, with output schemas', async () => {
    const { tools } = await client.listTools()
    // fetch's one optional argument, section, narrows the text to one section (issue 50).
    for (const [name, arg, optional] of [
      ['search', 'query', []],
      ['fetch', 'id', ['section']],
    ] as const) {
      const tool = tools.find((x) => x.name === name)!
      expect(tool.inputSchema).toMatchObject({
        type: 'object',
        properties: { [arg]: { type: 'string' } },
        required: [arg],
      })
      expect(Object.keys(tool.inputSchema.properties as object)).toEqual([arg, ...optional])
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false })
      expect(tool.outputSchema).toMatchObject({ type: 'object' })
    }
  })

  it('search answers {results: [{id, title, url, section}]} with "collection/slug" ids and canonical urls, best match first', async () => {
    const { results } = (await call('search', { query: 'reconciled 4.2 billion ledger rows overnight' })) as {
      results: Record<string, string>[]
    }
    expect(results.length).toBeGreaterThan(0)
    expect(results.length).toBeLessThanOrEqual(10)
    for (const r of results) {
      expect(Object.keys(r).sort()).toEqual(['id', 'section', 'title', 'url'])
      expect(r.id).toMatch(/^(blog-posts|case-studies|webinars|events)\/[a-z0-9-]+$/)
    }
    const study = await item(`case-studies/${STUDY}`)
    const { section, ...first } = results[0] as Record<string, unknown>
    expect(first).toEqual({ id: `case-studies/${STUDY}`, title: study.title, url: study.url })
    // The phrase is in the study's "The solution" section: the hit says so, with its anchor.
    expect(section).toEqual({ id: 'the-solution', text: 'The solution', url: `${study.url}#the-solution` })
  })

  it('search answers no match with empty results, not an error', async () => {
    expect(await call('search', { query: 'xylophonequartet' })).toEqual({ results: [] })
  })

  it('fetch answers {id, title, text, url, metadata} with the full Markdown text of the item search found', async () => {
    const { results } = (await call('search', { query: 'data contracts in CI' })) as { results: { id: string }[] }
    const id = results[0]!.id
    const rest = await item(id)
    const doc = await call('fetch', { id })
    expect(Object.keys(doc).sort()).toEqual(['id', 'metadata', 'text', 'title', 'url'])
    expect(doc).toMatchObject({ id, title: rest.title, text: rest.body.markdown, url: rest.url })
    expect(doc.metadata).toMatchObject({
      collection: id.split('/')[0],
      slug: id.split('/')[1],
      record_id: rest.id,
      resource_uri: `content://${id}`,
    })
  })

  it('fetch also takes the content:// URI and the REST record id, and answers with the canonical id', async () => {
    const study = await item(`case-studies/${STUDY}`)
    const canonical = await call('fetch', { id: `case-studies/${STUDY}` })
    expect(await call('fetch', { id: `content://case-studies/${STUDY}` })).toEqual(canonical)
    expect(await call('fetch', { id: study.id })).toEqual(canonical)
    expect(canonical).toMatchObject({
      id: `case-studies/${STUDY}`,
      metadata: { customer: expect.objectContaining({ name: 'Meridian Mutual Bank' }) },
    })
  })

  it('fetch carries the item’s image and social image as the API publishes them', async () => {
    const id = 'blog-posts/state-of-data-reliability-2026'
    const rest = (await item(id)) as unknown as { image: { sources: unknown[] }; social_image: unknown }
    const doc = (await call('fetch', { id })) as { metadata: Record<string, unknown> }
    expect(rest.image.sources.length).toBeGreaterThan(0)
    expect(doc.metadata.image).toEqual(rest.image)
    expect(doc.metadata.social_image).toEqual(rest.social_image)
  })

  it('fetch answers an id that names no published item with a tool error saying what ids look like', async () => {
    for (const id of [
      'case-studies/no-such-study',
      'podcasts/episode-1',
      'case-studies',
      `case-studies/${STUDY}/extra`,
      '../../etc/passwd',
      '0123456789abcdef0123',
    ]) {
      const result = await client.callTool({ name: 'fetch', arguments: { id } })
      expect(result.isError, id).toBe(true)
      const [message] = result.content as { text: string }[]
      expect(message!.text).toContain(id)
      expect(message!.text).toContain('collection/slug')
    }
  })

  it("fetch's unknown-id hint names ids that exist: the nearest slugs of the collection, else the newest item", async () => {
    const hint = async (id: string) => {
      const result = await client.callTool({ name: 'fetch', arguments: { id } })
      const [message] = result.content as { text: string }[]
      return [...message!.text.slice(message!.text.indexOf('e.g.')).matchAll(/"([a-z-]+\/[^"]+)"/g)].map((m) => m[1]!)
    }
    const near = await hint(`case-studies/${STUDY.split('-').slice(0, 2).join('-')}-typo`)
    expect(near).toContain(`case-studies/${STUDY}`)
    const examples = [...near, ...(await hint('podcasts/episode-1'))]
    expect(examples.length).toBeGreaterThan(1)
    for (const id of examples) {
      const result = await client.callTool({ name: 'fetch', arguments: { id } })
      expect(result.isError, id).toBeFalsy()
    }
  })
})
