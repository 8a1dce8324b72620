/**
 * Sections agents can cite (issue 50): get_content and fetch return only the
 * section a heading id names, an unknown one is a tool error listing the ids,
 * and search hits (MCP search_content and search, REST /api/search) name the
 * section their best match is in with its anchor. Through the SDK client
 * over real HTTP, on the fixture content.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { splitFrontmatter } from '../../../build/pipeline/frontmatter.ts'
import { FIXTURE_CONTENT } from '../../helpers/project.ts'
import { connectClient, startMcpGateway, type McpClient, type McpTestGateway } from './setup.ts'

const SLUG = 'lineage-graph-at-scale'
let t: McpTestGateway
let client: McpClient
let body: string
let url: string

beforeAll(async () => {
  t = await startMcpGateway()
  client = await connectClient(t.url, await t.token(['mcp.tools.invoke']))
  body = splitFrontmatter(await readFile(join(FIXTURE_CONTENT, 'blog-posts', `${SLUG}.md`), 'utf8')).content
  url = ((await (await fetch(`${t.url}/api/blog-posts/${SLUG}`)).json()) as { url: string }).url
})
afterAll(async () => {
  await client?.close()
  await t?.close()
})

/** The body's lines from the one starting `from` up to (not including) the one starting `to`. */
function between(from: string, to: string): string {
  const lines = body.split('\n')
  const start = lines.findIndex((line) => line.startsWith(from))
  const end = lines.findIndex((line, k) => k > start && line.startsWith(to))
  return lines.slice(start, end).join('\n').trimEnd()
}

async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args })
  const text = (result.content as { type: string; text: string }[])[0]!.text
  return { isError: result.isError === true, structured: result.structuredContent as Record<string, unknown>, text }
}

describe('a section through MCP', () => {
  it('get_content returns exactly the section: its heading to the next of the same or a higher level', async () => {
    const { isError, structured, text } = await call('get_content', {
      collection: 'blog-posts',
      slug: SLUG,
      section: 'what-worked',
    })
    expect(isError).toBe(false)
    // Its three ### subsections are inside it; the next ## ends it.
    expect(structured.markdown).toBe(between('## What worked', '## Try it from the CLI'))
    expect(structured.section).toEqual({ id: 'what-worked', text: 'What worked', depth: 2 })
    expect(text).toContain(`Section: What worked (${url}#what-worked)`)
    expect(text).not.toContain('## Lessons')
  })

  it('a subsection ends at the next heading of its level or above', async () => {
    const { structured } = await call('get_content', {
      collection: 'blog-posts',
      slug: SLUG,
      section: '3-bounded-traversal-with-early-summarisation',
    })
    expect(structured.markdown).toBe(between('### 3. Bounded', '## Try it from the CLI'))
  })

  it('fetch returns the section with its anchor', async () => {
    const { isError, text } = await call('fetch', { id: `blog-posts/${SLUG}`, section: 'lessons' })
    expect(isError).toBe(false)
    const answer = JSON.parse(text) as { text: string; url: string; section: unknown }
    expect(answer.text).toBe(body.slice(body.indexOf('## Lessons')).trimEnd())
    expect(answer.url).toBe(`${url}#lessons`)
    expect(answer.section).toEqual({ id: 'lessons', text: 'Lessons', depth: 2 })
  })

  it('an unknown section is a tool error with the closest id and every id', async () => {
    for (const [name, args] of [
      ['get_content', { collection: 'blog-posts', slug: SLUG, section: 'what-workd' }],
      ['fetch', { id: `blog-posts/${SLUG}`, section: 'what-workd' }],
    ] as const) {
      const { isError, text } = await call(name, args)
      expect(isError, name).toBe(true)
      expect(text, name).toBe(
        'No section "what-workd" in this item (did you mean "what-worked"?). Its sections: the-original-design, what-we-tried-first, what-worked, 1-separate-live-and-historical-edges, 2-an-in-memory-adjacency-index, 3-bounded-traversal-with-early-summarisation, try-it-from-the-cli, lessons.',
      )
    }
  })
})

describe('search hits name their section', () => {
  const ADJACENCY = { id: '2-an-in-memory-adjacency-index', text: '2. An in-memory adjacency index' }

  it('search_content gives the section of the best match and its anchor', async () => {
    const { structured } = await call('search_content', { query: 'transitive closure', limit: 3 })
    const hit = (structured.results as { slug: string; section: unknown }[]).find((r) => r.slug === SLUG)
    expect(hit?.section).toEqual({
      id: 'what-we-tried-first',
      text: 'What we tried first',
      url: `${url}#what-we-tried-first`,
    })
  })

  it('the connector search gives it too', async () => {
    const { text } = await call('search', { query: 'adjacency' })
    const { results } = JSON.parse(text) as { results: { id: string; section: unknown }[] }
    expect(results.find((r) => r.id === `blog-posts/${SLUG}`)?.section).toEqual({
      ...ADJACENCY,
      url: `${url}#${ADJACENCY.id}`,
    })
  })

  it('GET /api/search gives it, and null when the match is before the first heading', async () => {
    const answer = async (q: string) => {
      const res = await fetch(`${t.url}/api/search?q=${encodeURIComponent(q)}&collection=blog-posts`)
      expect(res.status).toBe(200)
      const { data } = (await res.json()) as { data: { slug: string; section: unknown }[] }
      return data.find((hit) => hit.slug === SLUG)?.section
    }
    expect(await answer('adjacency')).toEqual({ ...ADJACENCY, url: `${url}#${ADJACENCY.id}` })
    expect(await answer('timed out entirely')).toBeNull()
  })
})
