/**
 * The MCP tools on a multilingual build, through the SDK's own clients over
 * real HTTP in both protocol eras: list_content, get_content, search_content
 * and list_upcoming take a locale, and answer as REST does with ?locale=;
 * the connector pair keeps its one required argument each (search searches every
 * locale, ids of translations name theirs, fetch reads them); resources name
 * a translation's locale, read an item in any locale, and serve each
 * locale's agent reference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { copyOfLocaleFixture } from '../../helpers/project.ts'
import { connectClient, ERAS } from '../mcp/setup.ts'

let gw: BuiltGateway
/** Before the Zürich roadshow (2027-02-24), whatever day the suite runs. */
const NOW = new Date('2027-01-01T12:00:00Z')
beforeAll(async () => {
  gw = await startBuiltGateway({
    project: await copyOfLocaleFixture(),
    env: { MCP_AUTH: 'off' },
    platform: { now: () => NOW },
  })
}, 120_000)
afterAll(async () => {
  await gw?.close()
  await gw?.project.remove()
})

const rest = async <T>(path: string): Promise<T> => (await (await fetch(`${gw.url}${path}`)).json()) as T

describe.each(ERAS)('MCP tools in a locale ($era)', ({ era }) => {
  const call = async (name: string, args: Record<string, unknown>) => {
    const client = await connectClient(gw.url, undefined, era)
    try {
      return (await client.callTool({ name, arguments: args })) as {
        isError?: boolean
        structuredContent?: Record<string, unknown>
        content: { text: string }[]
      }
    } finally {
      await client.close()
    }
  }

  it('the tools declare a locale argument', async () => {
    const client = await connectClient(gw.url, undefined, era)
    const { tools } = await client.listTools()
    await client.close()
    for (const name of ['list_content', 'get_content', 'search_content', 'list_upcoming'])
      expect(Object.keys((tools.find((t) => t.name === name)!.inputSchema.properties ?? {}) as object)).toContain(
        'locale',
      )
  })

  it('list_content in German is the REST list with ?locale=de', async () => {
    const result = await call('list_content', { collection: 'blog-posts', limit: 20, locale: 'de' })
    const list = await rest<{ data: unknown[]; links: unknown }>('/api/blog-posts?limit=20&locale=de')
    expect(result.structuredContent).toMatchObject({ data: list.data, links: list.links })
  })

  it('get_content finds the German version by the English slug', async () => {
    const result = await call('get_content', { collection: 'blog-posts', slug: 'data-contracts-in-ci', locale: 'de' })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({
      slug: 'datenvertraege-in-der-ci',
      metadata: { locale: 'de', title: 'Datenverträge in der CI mit GitHub Actions durchsetzen' },
    })
    expect(String(result.structuredContent!.markdown)).toMatch(/höflicher Störungsbericht/)
  })

  it('search_content searches the French index, stemmed', async () => {
    const result = await call('search_content', { query: 'contrat de donnée', locale: 'fr' })
    const results = result.structuredContent!.results as { slug: string }[]
    expect(results[0]!.slug).toBe('contrats-de-donnees-en-ci')
  })

  it("list_upcoming in French: the locale's events, each resource naming its locale", async () => {
    const result = await call('list_upcoming', { collection: 'events', locale: 'fr' })
    expect(result.isError).toBeFalsy()
    const items = result.structuredContent!.items as { slug: string; resource_uri: string }[]
    expect(items.map((i) => [i.slug, i.resource_uri])).toEqual([
      ['roadshow-tidewater-zurich-2027', 'content://events/roadshow-tidewater-zurich-2027?locale=fr'],
    ])
    const english = (await call('list_upcoming', { collection: 'events' })).structuredContent!.items as {
      slug: string
    }[]
    expect(english.map((i) => i.slug)).toContain('tidewater-roadshow-zurich-2027')
    expect((await call('list_upcoming', { locale: 'it' })).isError).toBe(true)
  })

  it('search (the connector) keeps its one argument and finds a German question’s German answer, its id naming the locale', async () => {
    const client = await connectClient(gw.url, undefined, era)
    const { tools } = await client.listTools()
    await client.close()
    // fetch's optional section (issue 50) narrows the answer; the connector's id is still all it needs.
    for (const [name, args] of [
      ['search', ['query']],
      ['fetch', ['id', 'section']],
    ] as const)
      expect(Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties as object)).toEqual(args)
    const german = (await call('search', { query: 'Datenverträge durchsetzen' })).structuredContent!.results as {
      id: string
      url: string
    }[]
    expect(german[0]).toMatchObject({
      id: 'blog-posts/datenvertraege-in-der-ci?locale=de',
      url: 'https://www.tidewater.example/de/blog/datenvertraege-in-der-ci',
    })
    const english = (await call('search', { query: 'data contracts in CI' })).structuredContent!.results as {
      id: string
    }[]
    expect(english.map((r) => r.id)).toContain('blog-posts/data-contracts-in-ci')
  })

  it('fetch reads a translation by its connector id, its REST id or its resource URI', async () => {
    const record = await rest<{ id: string }>('/api/blog-posts/datenvertraege-in-der-ci?locale=de')
    for (const id of [
      'blog-posts/datenvertraege-in-der-ci?locale=de',
      record.id,
      'content://blog-posts/datenvertraege-in-der-ci?locale=de',
      // By the English slug, as REST finds it.
      'blog-posts/data-contracts-in-ci?locale=de',
    ]) {
      const result = await call('fetch', { id })
      expect(result.isError, id).toBeFalsy()
      expect(result.structuredContent, id).toMatchObject({
        id: 'blog-posts/datenvertraege-in-der-ci?locale=de',
        metadata: {
          locale: 'de',
          record_id: record.id,
          resource_uri: 'content://blog-posts/datenvertraege-in-der-ci?locale=de',
        },
      })
      expect(String(result.structuredContent!.text)).toMatch(/höflicher Störungsbericht/)
    }
    const unknown = await call('fetch', { id: 'blog-posts/data-contracts-in-ci?locale=it' })
    expect(unknown.isError).toBe(true)
  })

  it("resources: translations listed with their locale, an item read in any locale, each locale's agent reference", async () => {
    const client = await connectClient(gw.url, undefined, era)
    try {
      const uris = (await client.listResources()).resources.map((r) => r.uri)
      expect(uris).toContain('content://blog-posts/datenvertraege-in-der-ci?locale=de')
      expect(uris).toContain('content://blog-posts/data-contracts-in-ci')
      expect(uris).toContain('reference://llms-full.de.txt')
      expect(uris).toContain('reference://llms-full.fr.txt')
      const read = async (uri: string) => String((await client.readResource({ uri })).contents[0]!.text)
      expect(await read('content://blog-posts/datenvertraege-in-der-ci?locale=de')).toMatch(/^locale: de$/m)
      expect(await read('content://blog-posts/data-contracts-in-ci?locale=fr')).toMatch(
        /^slug: contrats-de-donnees-en-ci$/m,
      )
      expect(await read('content://blog-posts/data-contracts-in-ci')).toMatch(/^locale: en$/m)
      const reference = await read('reference://llms-full.de.txt')
      expect(reference).toBe(await (await fetch(`${gw.url}/llms-full.de.txt`)).text())
      await expect(client.readResource({ uri: 'content://blog-posts/data-contracts-in-ci?locale=it' })).rejects.toThrow(
        /en, de, fr/,
      )
    } finally {
      await client.close()
    }
  })

  it('search_content names the resource of a translation it found', async () => {
    const result = await call('search_content', { query: 'contrat de donnée', locale: 'fr' })
    const [first] = result.structuredContent!.results as { resource_uri: string }[]
    expect(first!.resource_uri).toBe('content://blog-posts/contrats-de-donnees-en-ci?locale=fr')
  })

  it('an unknown locale is a tool error naming the choices', async () => {
    const result = await call('list_content', { collection: 'blog-posts', locale: 'it' })
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toMatch(/en, de, fr/)
  })
})
