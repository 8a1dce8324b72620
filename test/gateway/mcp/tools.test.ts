/**
 * The MCP tools through the SDK's own clients over real HTTP, on the
 * repository's content, in both protocol eras (SDK v2 client on 2026-07-28,
 * SDK v1 client on 2025-11-25): schemas published, every result validated
 * against the tool's outputSchema with ajv, and answers equal to what REST says.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectClient, ERAS, startMcpGateway, type McpClient, type McpTestGateway } from './setup.ts'

/** The clock list_upcoming runs on in these tests; expectations use the same instant. */
const NOW = new Date('2026-11-01T12:00:00Z')
const TOOLS = [
  'search_content',
  'list_content',
  'get_content',
  'list_upcoming',
  'list_tags',
  'get_person',
  'search',
  'fetch',
  'describe_content_model',
]

let t: McpTestGateway
const ajv = new Ajv2020({ strict: false, allErrors: true })

beforeAll(async () => {
  t = await startMcpGateway({ now: () => NOW })
})
afterAll(() => t?.close())

const rest = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${t.url}${path}`)
  expect(res.status).toBe(200)
  return (await res.json()) as T
}

type Record_ = { slug: string; tags: string[]; starts_at?: string; location?: { region?: string } | null }

describe.each(ERAS)('$protocol ($client)', ({ era }) => {
  let client: McpClient
  let outputSchemas: Map<string, object>

  beforeAll(async () => {
    client = await connectClient(t.url, await t.token(['mcp.tools.invoke']), era)
    const { tools } = await client.listTools()
    outputSchemas = new Map(tools.map((tool) => [tool.name, tool.outputSchema as object]))
  })
  afterAll(() => client?.close())

  /** Call a tool and check its structured content against the published outputSchema. */
  async function call(name: string, args: Record<string, unknown>) {
    const result = await client.callTool({ name, arguments: args })
    expect(result.isError ?? false).toBe(false)
    const validate = ajv.compile(outputSchemas.get(name)!)
    expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true)
    const text = (result.content as { type: string; text: string }[]).find((c) => c.type === 'text')
    expect(text?.text.length).toBeGreaterThan(0)
    return { structured: result.structuredContent as Record<string, unknown>, text: text!.text }
  }

  describe('tools/list', () => {
    it('lists the nine read-only tools with descriptions, input and output schemas', async () => {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort())
      for (const tool of tools) {
        expect(tool.description!.length).toBeGreaterThan(tool.name === 'search' || tool.name === 'fetch' ? 100 : 150)
        expect(tool.inputSchema.type).toBe('object')
        expect(tool.outputSchema?.type).toBe('object')
        expect(() => ajv.compile(tool.outputSchema!)).not.toThrow()
        expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false })
      }
    })

    it("takes REST's query parameters as the served openapi.json states them, and only its own besides", async () => {
      type Schema = Record<string, unknown> & { description?: string; anyOf?: Schema[]; items?: { enum?: string[] } }
      type Param = { name: string; in: string; description: string; schema: Schema; $ref?: string }
      const doc = await rest<{
        paths: Record<string, { get: { parameters: Param[] } }>
        components: { parameters: Record<string, Param> }
      }>('/openapi.json')
      const queryOf = (path: string) =>
        doc.paths[path]!.get.parameters.map((p) =>
          p.$ref ? doc.components.parameters[p.$ref.split('/').at(-1)!]! : p,
        ).filter((p) => p.in === 'query')
      const lists = ['blog-posts', 'case-studies', 'webinars', 'events']
      // Each tool, the paths whose query parameters it takes, and the arguments that are its own (not REST's).
      // (`include_drafts`: the preview's, gateway/mcp/drafts.ts, which REST has as routes of its own.)
      const cases: [string, string[], string[]][] = [
        ['list_content', lists.map((c) => `/api/${c}`), ['collection', 'include_drafts']],
        ['search_content', ['/api/search'], ['limit', 'include_drafts']],
        ['list_upcoming', ['/api/events', '/api/webinars'], ['days', 'region', 'collection', 'limit']],
        ['get_content', lists.map((c) => `/api/${c}/{slug}`), ['collection', 'slug', 'section', 'include_drafts']],
      ]
      // The same declaration opens both descriptions (of several collections', with its own list of values after it).
      const opening = (text: string) => text.split(/:|\.(?: |$)/)[0]
      const { tools } = await client.listTools()
      for (const [name, paths, own] of cases) {
        const properties = tools.find((tool) => tool.name === name)!.inputSchema.properties as Record<string, Schema>
        for (const arg of Object.keys(properties).filter((a) => !own.includes(a))) {
          const documented = paths
            .flatMap((path) => queryOf(path))
            .filter((p) => p.name === (arg === 'query' ? 'q' : arg))
          expect(documented.length, `${name} ${arg}`).toBeGreaterThan(0)
          const { description, examples: _e, default: _d, ...mcp } = properties[arg]!
          for (const p of documented) {
            expect(opening(description!), `${name} ${arg}`).toBe(opening(p.description))
            const { examples: _x, default: _f, ...schema } = p.schema
            if (schema.type !== 'array') expect(mcp, `${name} ${arg}`).toEqual(schema)
            else if (documented.every((d) => d.schema === p.schema)) expect(mcp.anyOf![1]).toEqual(schema)
          }
          // A tool of several collections takes a list value of any of them.
          if (documented[0]!.schema.type === 'array')
            expect(new Set(mcp.anyOf![1]!.items!.enum ?? [])).toEqual(
              new Set(documented.flatMap((p) => p.schema.items!.enum ?? [])),
            )
        }
      }
    })
  })

  describe('describe_content_model', () => {
    it('gives each collection of the build with its label, paths, order, fields and filters, as the resource does', async () => {
      const { structured } = await call('describe_content_model', {})
      type Described = {
        name: string
        label: string
        list: string
        dated: boolean
        fields: { name: string; type: string; values?: string[]; description?: string }[]
        filters: string[]
      }
      const collections = structured.collections as Described[]
      expect(collections.map((c) => c.name)).toEqual(['blog-posts', 'case-studies', 'webinars', 'events'])
      const events = collections.find((c) => c.name === 'events')!
      expect(events).toMatchObject({ label: 'event', list: '/api/events', dated: true })
      expect(events.fields.find((f) => f.name === 'attendance_mode')).toMatchObject({
        type: 'enum',
        values: ['in_person', 'online', 'hybrid'],
      })
      expect(events.fields.find((f) => f.name === 'event_status')?.description).toBe('Defaults to scheduled.')
      expect(events.filters).toEqual(expect.arrayContaining(['tag', 'author', 'when']))
      expect(collections.find((c) => c.name === 'case-studies')!.filters).not.toContain('author')
      // Every field of a record of the collection, but the common ones, is described.
      const list = await rest<{ data: Record<string, unknown>[] }>('/api/events?limit=1')
      const common = (structured.common_fields as { name: string }[]).map((f) => f.name)
      for (const key of Object.keys(list.data[0]!))
        expect([...common, ...events.fields.map((f) => f.name), 'social_image']).toContain(key)
      const read = await client.readResource({ uri: 'model://content-model' })
      expect(JSON.parse(String(read.contents[0]!.text))).toEqual(structured)
    })
  })

  describe('search_content', () => {
    it('returns the case study containing a phrase first, with a snippet around the phrase', async () => {
      const phrase = 'reconciled 4.2 billion ledger rows overnight'
      const { structured, text } = await call('search_content', { query: phrase })
      const [first] = structured.results as {
        collection: string
        slug: string
        snippet: string
        resource_uri: string
      }[]
      expect(first).toMatchObject({
        collection: 'case-studies',
        slug: 'meridian-mutual-ledger-reconciliation',
        resource_uri: 'content://case-studies/meridian-mutual-ledger-reconciliation',
      })
      expect(first!.snippet).toContain(phrase)
      expect(text).toContain('Meridian Mutual')
    })

    it('filters by collection, honours limit, and answers an empty result without an error', async () => {
      const { structured } = await call('search_content', { query: 'lineage', collection: 'webinars', limit: 2 })
      const results = structured.results as { collection: string }[]
      expect(results.length).toBeGreaterThan(0)
      expect(results.length).toBeLessThanOrEqual(2)
      expect(results.every((r) => r.collection === 'webinars')).toBe(true)
      const none = await call('search_content', { query: 'xylophonequartet' })
      expect(none.structured).toMatchObject({ total: 0, results: [] })
    })

    it('takes the filters of the lists: author, tags, published dates, exclude', async () => {
      const byJose = await call('search_content', { query: 'contracts', author: 'José Núñez', limit: 25 })
      const results = byJose.structured.results as { collection: string; slug: string }[]
      expect(results.length).toBeGreaterThan(1)
      for (const r of results) {
        const item = await rest<{ authors?: { slug: string }[]; speakers?: { slug: string }[] }>(
          `/api/${r.collection}/${r.slug}`,
        )
        expect([...(item.authors ?? []), ...(item.speakers ?? [])].map((p) => p.slug)).toContain('jose-nunez')
      }
      const without = await call('search_content', {
        query: 'contracts',
        author: 'jose-nunez',
        exclude: results[0]!.slug,
        limit: 25,
      })
      expect((without.structured.results as { slug: string }[]).map((r) => r.slug)).not.toContain(results[0]!.slug)
      const tagged = await call('search_content', { query: 'data', tag: ['finops', 'healthcare'], limit: 25 })
      const hits = tagged.structured.results as { collection: string; slug: string }[]
      expect(hits.length).toBeGreaterThan(1)
      for (const r of hits) {
        const item = await rest<{ tags: string[] }>(`/api/${r.collection}/${r.slug}`)
        expect(item.tags.some((t) => t === 'finops' || t === 'healthcare')).toBe(true)
      }
      const bad = await client.callTool({ name: 'search_content', arguments: { query: 'x', published_after: 'soon' } })
      expect(bad.isError).toBe(true)
      expect(JSON.stringify(bad.content)).toContain('published_after')
    })

    it('refuses a query longer than 200 characters as a tool error', async () => {
      const result = await client.callTool({ name: 'search_content', arguments: { query: 'a'.repeat(201) } })
      expect(result.isError).toBe(true)
    })
  })

  describe('list_content', () => {
    it('gives exactly the REST list envelope for the same limit, page and tag', async () => {
      for (const [collection, args, query] of [
        ['blog-posts', { limit: 3, page: 2 }, 'limit=3&page=2'],
        ['case-studies', { tag: 'data-contracts', limit: 2 }, 'limit=2&tag=data-contracts'],
        ['events', {}, 'limit=10'],
      ] as const) {
        const { structured } = await call('list_content', { collection, ...args })
        const { collection: named, ...envelope } = structured
        expect(named).toBe(collection)
        expect(envelope).toEqual(await rest(`/api/${collection}?${query}`))
      }
    })

    it('takes the same filters, order and fields as REST and gives the same envelope', async () => {
      for (const [collection, args, query] of [
        [
          'blog-posts',
          { author: 'José Núñez', sort: ['title'], fields: ['title', 'slug'], limit: 1, page: 2 },
          'limit=1&page=2&author=jose-nunez&sort=title&fields=title,slug',
        ],
        [
          'case-studies',
          { tag: ['finops', 'lineage'], exclude: 'cobalt-and-pine-finops' },
          'tag=finops,lineage&exclude=cobalt-and-pine-finops',
        ],
        [
          'webinars',
          // Lists as REST writes them, one string with commas, work too.
          {
            published_after: '2025-12-31',
            published_before: '2027-01-01T00:00:00Z',
            sort: '-starts_at,title',
            fields: 'title,starts_at',
          },
          'published_after=2025-12-31&published_before=2027-01-01T00:00:00Z&sort=-starts_at,title&fields=title,starts_at',
        ],
      ] as const) {
        const { structured, text } = await call('list_content', { collection, ...args })
        const { collection: _named, ...envelope } = structured
        expect(envelope).toEqual(await rest(`/api/${collection}?${query}`))
        expect(text).toContain('matching the filters')
      }
    })

    it('decides when by the request time', async () => {
      const { structured } = await call('list_content', {
        collection: 'events',
        when: 'upcoming',
        sort: ['starts_at'],
        limit: 100,
      })
      const expected = (await rest<{ data: Record_[] }>('/api/events?limit=100')).data
        .filter((r) => Date.parse(r.starts_at!) > NOW.getTime())
        .sort((a, b) => Date.parse(a.starts_at!) - Date.parse(b.starts_at!))
      expect((structured.data as Record_[]).map((r) => r.slug)).toEqual(expected.map((r) => r.slug))
    })

    it('refuses what REST refuses, as tool errors naming the parameter and what it takes', async () => {
      for (const [args, parameter, valid] of [
        [{ sort: ['rank'] }, 'sort', 'published_at, updated_at, title'],
        [{ fields: ['title', 'nope'] }, 'fields', 'id, type, slug'],
        [{ when: 'upcoming' }, 'when', 'events and webinars'],
        [{ published_before: '31/03/2026' }, 'published_before', '2026-03-31'],
      ] as const) {
        const result = await client.callTool({ name: 'list_content', arguments: { collection: 'blog-posts', ...args } })
        expect(result.isError).toBe(true)
        const [message] = result.content as { text: string }[]
        expect(message!.text).toContain(parameter)
        expect(message!.text).toContain(valid)
      }
    })

    it('matches a tag without regard to case, like REST', async () => {
      const { structured } = await call('list_content', { collection: 'case-studies', tag: 'Data-Contracts' })
      const { collection: _, ...envelope } = structured
      expect(envelope).toEqual(await rest('/api/case-studies?tag=DATA-CONTRACTS'))
      expect((envelope as { meta: { total: number } }).meta.total).toBeGreaterThan(0)
    })

    it('reports a page past the end as an empty page, like REST', async () => {
      const { structured } = await call('list_content', { collection: 'case-studies', page: 999 })
      expect(structured).toMatchObject({ data: [], meta: { page: 999, count: 0 } })
    })

    it('refuses an out-of-range limit and a malformed tag as tool errors naming the parameter', async () => {
      for (const args of [{ limit: 101 }, { limit: 0 }, { tag: 'Not A Tag' }]) {
        const result = await client.callTool({ name: 'list_content', arguments: { collection: 'blog-posts', ...args } })
        expect(result.isError).toBe(true)
        expect(JSON.stringify(result.content)).toMatch(/limit|tag/)
      }
    })
  })

  describe('get_content', () => {
    it('returns the markdown body and the metadata of the item file', async () => {
      const slug = 'meridian-mutual-ledger-reconciliation'
      const { structured, text } = await call('get_content', { collection: 'case-studies', slug })
      const item = await rest<Record<string, unknown> & { body: { markdown: string } }>(`/api/case-studies/${slug}`)
      const { body, ...metadata } = item
      expect(structured).toEqual({
        collection: 'case-studies',
        slug,
        resource_uri: `content://case-studies/${slug}`,
        metadata,
        markdown: body.markdown,
      })
      expect(text).toContain(body.markdown)
    })

    it('answers an unknown slug with a tool error that says how to find slugs', async () => {
      const result = await client.callTool({
        name: 'get_content',
        arguments: { collection: 'case-studies', slug: 'no-such-study' },
      })
      expect(result.isError).toBe(true)
      const [message] = result.content as { text: string }[]
      expect(message!.text).toContain('no-such-study')
      expect(message!.text).toContain('list_content')
    })
  })

  describe('list_tags and get_person', () => {
    it('list_tags answers what GET /api/tags does, per collection too', async () => {
      for (const query of ['', '?collection=webinars']) {
        const { data } = await rest<{ data: unknown[] }>(`/api/tags${query}`)
        const args = query ? { collection: 'webinars' } : {}
        const { structured } = await call('list_tags', args)
        expect(structured.tags).toEqual(data)
      }
    })

    it('get_person answers the profile and items of GET /api/people/{slug}', async () => {
      const { data: people } = await rest<{ data: { slug: string }[] }>('/api/people')
      const slug = people[0]!.slug
      const page = await rest<{ person: unknown; data: unknown[]; meta: { total: number } }>(
        `/api/people/${slug}?limit=50`,
      )
      const { structured, text } = await call('get_person', { slug, limit: 50 })
      expect(structured).toEqual({ person: page.person, items: page.data, total: page.meta.total })
      expect(text).toContain((page.person as { name: string }).name)
      const unknown = await client.callTool({ name: 'get_person', arguments: { slug: 'nobody-at-all' } })
      expect(unknown.isError).toBe(true)
    })
  })

  describe('list_upcoming', () => {
    async function expectedUpcoming(filter: (r: Record_) => boolean = () => true): Promise<string[]> {
      const events = await rest<{ data: Record_[] }>('/api/events?limit=100')
      const webinars = await rest<{ data: Record_[] }>('/api/webinars?limit=100')
      return [...events.data, ...webinars.data]
        .filter((r) => Date.parse(r.starts_at!) > NOW.getTime() && filter(r))
        .sort((a, b) => Date.parse(a.starts_at!) - Date.parse(b.starts_at!))
        .map((r) => r.slug)
    }

    it('lists the events and webinars starting after the request time, soonest first', async () => {
      const expected = await expectedUpcoming()
      expect(expected.length).toBeGreaterThan(2)
      const { structured } = await call('list_upcoming', { limit: 100 })
      expect(structured.now).toBe(NOW.toISOString())
      expect((structured.items as { slug: string }[]).map((i) => i.slug)).toEqual(expected)
    })

    it('filters by tag and by speaker, as the lists do', async () => {
      const tagged = await expectedUpcoming((r) => r.tags.includes('lineage'))
      const { structured } = await call('list_upcoming', { tag: 'LINEAGE' })
      expect((structured.items as { slug: string }[]).map((i) => i.slug)).toEqual(tagged)
      expect(tagged.length).toBeGreaterThan(0)
      const speaking = await call('list_upcoming', { author: 'lukasz-wisniewski' })
      expect((speaking.structured.items as { slug: string }[]).map((i) => i.slug)).toEqual([
        'lineage-office-hours-2027',
      ])
    })

    it('filters by region (location region or region tag) and by a days window', async () => {
      const emea = await expectedUpcoming((r) => r.location?.region === 'EMEA' || r.tags.includes('events-emea'))
      const { structured } = await call('list_upcoming', { region: 'emea' })
      expect((structured.items as { slug: string }[]).map((i) => i.slug)).toEqual(emea)
      const within = await expectedUpcoming((r) => Date.parse(r.starts_at!) <= NOW.getTime() + 60 * 86_400_000)
      const windowed = await call('list_upcoming', { days: 60 })
      expect((windowed.structured.items as { slug: string }[]).map((i) => i.slug)).toEqual(within)
      expect(windowed.structured.until).toBe(new Date(NOW.getTime() + 60 * 86_400_000).toISOString())
    })

    it('takes the published dates and fields of the lists, and gives what REST gives for them', async () => {
      // list_upcoming is REST's when=upcoming by starts_at; with fields, items are REST's sparse records.
      const sparse = (items: Record<string, unknown>[]) =>
        items.map(({ collection: _c, resource_uri: _r, ...record }) => record)
      for (const [collection, args, query] of [
        [
          'events',
          { published_after: '2026-10-01', fields: ['title', 'starts_at', 'location'] },
          'published_after=2026-10-01&fields=title,starts_at,location',
        ],
        [
          'webinars',
          { published_before: '2026-11-21T00:00:00Z', updated_since: '2020-01-01', fields: 'slug,speakers' },
          'published_before=2026-11-21T00:00:00Z&updated_since=2020-01-01&fields=slug,speakers',
        ],
      ] as const) {
        const expected = await rest<{ data: Record<string, unknown>[] }>(
          `/api/${collection}?when=upcoming&sort=starts_at&limit=100&${query}`,
        )
        const all = await rest<{ data: Record_[] }>(`/api/${collection}?when=upcoming&limit=100`)
        expect(expected.data.length).toBeGreaterThan(0)
        expect(expected.data.length).toBeLessThan(all.data.length)
        const { structured } = await call('list_upcoming', { collection, limit: 100, ...args })
        const items = structured.items as Record<string, unknown>[]
        expect(sparse(items)).toEqual(expected.data)
        for (const item of items) {
          expect(item.collection).toBe(collection)
          expect(item.resource_uri).toMatch(new RegExp(`^content://${collection}/`))
        }
      }
      // Across both collections, a field of either: events carry their location, webinars do not have one.
      const both = await call('list_upcoming', { limit: 100, fields: ['title', 'location'] })
      const items = both.structured.items as Record<string, unknown>[]
      expect(items.map((i) => i.resource_uri)).toEqual(
        (await expectedUpcoming()).map((slug) =>
          expect.stringMatching(new RegExp(`^content://(events|webinars)/${slug}$`)),
        ),
      )
      for (const item of items)
        expect(Object.keys(item).sort()).toEqual(
          [
            'collection',
            'resource_uri',
            'id',
            'type',
            'title',
            ...(item.collection === 'events' ? ['location'] : []),
          ].sort(),
        )
    })

    it('refuses a malformed date and an unknown field as REST does, naming the parameter and what it takes', async () => {
      for (const [args, parameter, valid] of [
        [{ published_after: 'last week' }, 'published_after', '2026-03-31'],
        [{ updated_since: '2026-02-30' }, 'updated_since', '2026-03-01'],
        [{ collection: 'webinars', fields: ['title', 'location'] }, 'fields', 'duration_minutes'],
        [{ fields: ['title', 'authors'] }, 'fields', 'location'],
      ] as const) {
        const result = await client.callTool({ name: 'list_upcoming', arguments: args })
        expect(result.isError, JSON.stringify(args)).toBe(true)
        const [message] = result.content as { text: string }[]
        expect(message!.text).toContain(parameter)
        expect(message!.text).toContain(valid)
      }
    })
  })
})
