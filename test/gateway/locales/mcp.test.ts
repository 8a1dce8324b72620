/**
 * The MCP tools on a multilingual build, through the SDK's own clients over
 * real HTTP in both protocol eras: list_content, get_content and
 * search_content take a locale, and answer as REST does with ?locale=.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { copyOfLocaleFixture } from '../../helpers/project.ts'
import { connectClient, ERAS } from '../mcp/setup.ts'

let gw: BuiltGateway
beforeAll(async () => {
  gw = await startBuiltGateway({ project: await copyOfLocaleFixture(), env: { MCP_AUTH: 'off' } })
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
    for (const name of ['list_content', 'get_content', 'search_content'])
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

  it('an unknown locale is a tool error naming the choices', async () => {
    const result = await call('list_content', { collection: 'blog-posts', locale: 'it' })
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toMatch(/en, de, fr/)
  })
})
