/**
 * A collection added to content/site.yaml, and nothing else: a copy of the
 * fixture content gains `press-releases` (an object field, an enum field
 * that is a filter, a list of objects and a reference to a case study) and
 * three Markdown files. No code changes; the build and the whole gateway
 * serve it, and the test finds it in every place the model reaches: its
 * list (with `limit` and the filter, a bad value a 400 naming it), its item,
 * the OpenAPI document, the OAuth metadata's scopes, search, feeds (its own
 * and `all`), llms-full.txt, the editor's configuration, and MCP's
 * list_content and describe_content_model.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent } from '../../helpers/project.ts'
import { connectClient, type McpClient } from '../mcp/setup.ts'

const PRESS_RELEASES = `  press-releases:
    path: /press
    title: Press
    label: press release
    fields:
      category:
        type: enum
        values: [product, company, partnership]
        required: true
        filter: true
        description: What the release announces.
      contact:
        type: object
        description: Who answers the press.
        fields:
          name: { type: string, required: true, max: 120 }
          email: email
      quotes:
        type: list
        max: 5
        of:
          type: object
          fields:
            text: { type: text, required: true, max: 600 }
            by: { type: string, required: true, max: 120 }
      case_study: { type: reference, collection: case-studies }
  trainings:
    path: /trainings
    title: Trainings
    label: training
    dated: true
    fields:
      starts_at: { type: datetime, required: true }
      timezone: { type: timezone, required: true }
      seats: { type: integer, required: true, min: 1 }
`

const release = (title: string, date: string, category: string, extra = '') => `---
title: ${title}
published_at: ${date}
category: ${category}
tags: [launch]
${extra}---

Tidewater announces ${title.toLowerCase()} with a quasar-grade press line.
`

const FILES = {
  'content/press-releases/lineage-two.md': release(
    'Lineage Two',
    '2026-03-02',
    'product',
    [
      'contact:',
      '  name: Ana Press',
      '  email: press@tidewater.example',
      'quotes:',
      '  - text: It changes how teams see their data.',
      '    by: Ana Press',
      'case_study: cobalt-and-pine-finops',
      '',
    ].join('\n'),
  ),
  'content/press-releases/new-office.md': release('New Office', '2026-02-01', 'company'),
  'content/press-releases/partner-program.md': release('Partner Program', '2026-01-15', 'partnership'),
  'content/trainings/lineage-basics.md': `---
title: Lineage Basics
published_at: 2026-01-10
starts_at: 2099-05-04T09:00:00+02:00
timezone: Europe/Zurich
seats: 12
---

A morning on reading lineage graphs.
`,
}

type Json = Record<string, unknown>

describe('a collection added in site.yaml, with no code', () => {
  let gw: BuiltGateway
  let client: McpClient
  const get = async (path: string) => {
    const res = await fetch(`${gw.url}${path}`)
    return { status: res.status, body: (await res.json()) as Json }
  }

  beforeAll(async () => {
    const project = await copyOfFixtureContent()
    const site = await readFile(join(project.root, 'content/site.yaml'), 'utf8')
    await project.write('content/site.yaml', `${site.trimEnd()}\n${PRESS_RELEASES}`)
    for (const [path, text] of Object.entries(FILES)) await project.write(path, text)
    gw = await startBuiltGateway({ project, clients: { agent: ['mcp.tools.invoke'] } })
    client = await connectClient(gw.url, await gw.token('agent', ['mcp.tools.invoke']))
  }, 240_000)
  afterAll(async () => {
    await client?.close()
    await gw?.close()
    await gw?.project.remove()
  })

  it('is a list with limit and its filter, and items with its fields', async () => {
    const all = await get('/api/press-releases?limit=2')
    expect(all.status).toBe(200)
    expect((all.body.data as Json[]).map((r) => r.slug)).toEqual(['lineage-two', 'new-office'])
    expect(all.body.meta).toMatchObject({ total: 3, limit: 2, pages: 2 })

    const filtered = await get('/api/press-releases?category=company,partnership&limit=1')
    expect(filtered.status).toBe(200)
    expect((filtered.body.data as Json[]).map((r) => r.slug)).toEqual(['new-office'])
    expect(filtered.body.meta).toMatchObject({ total: 2 })
    expect((filtered.body.links as Json).next).toContain('category=company,partnership')

    // Only the gateway answers a filter: it draws from the computed budget, as other filters do; the file does not.
    const charged = (query: string) =>
      fetch(`${gw.url}/api/press-releases${query}`).then((res) => res.headers.has('ratelimit'))
    expect(await charged('?limit=2')).toBe(false)
    expect(await charged('?category=product')).toBe(true)
    expect(await charged('?tag=launch')).toBe(true)

    const bad = await get('/api/press-releases?category=rumour')
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain('category')

    const item = await get('/api/press-releases/lineage-two')
    expect(item.status).toBe(200)
    expect(item.body).toMatchObject({
      type: 'press_release',
      category: 'product',
      contact: { name: 'Ana Press', email: 'press@tidewater.example' },
      quotes: [{ text: 'It changes how teams see their data.', by: 'Ana Press' }],
      // A reference is resolved to the item it names, as `related` is.
      case_study: {
        collection: 'case-studies',
        slug: 'cobalt-and-pine-finops',
        url: expect.stringContaining('/customers/'),
      },
    })
    const other = await get('/api/press-releases/new-office')
    expect(other.body).toMatchObject({ contact: null, quotes: [], case_study: null })
  })

  it('is in the OpenAPI document and the OAuth metadata, with its own scope', async () => {
    const doc = (await get('/openapi.json')).body
    const paths = doc.paths as Record<string, { get: { parameters: Json[]; security: Json[] } }>
    const list = paths['/api/press-releases']!.get
    expect(paths['/api/press-releases/{slug}']).toBeDefined()
    expect(list.parameters.find((p) => p.name === 'category')).toMatchObject({
      in: 'query',
      schema: { type: 'array', items: { enum: ['product', 'company', 'partnership'] } },
    })
    // Nobody is named in it, nor does it start at a time: author and when are not its filters.
    expect(list.parameters.map((p) => p.name)).not.toContain('author')
    expect(list.parameters.map((p) => p.name)).not.toContain('when')
    expect(JSON.stringify(list.security)).toContain('content.press-releases.read')
    const schemas = (doc.components as Json).schemas as Record<string, { properties: Record<string, Json> }>
    expect(schemas.PressRelease!.properties.category).toMatchObject({ enum: ['product', 'company', 'partnership'] })
    expect(schemas.PressRelease!.properties.contact).toBeDefined()
    expect(schemas.PressReleaseSummary).toBeDefined()

    const metadata = (await get('/.well-known/oauth-authorization-server')).body
    expect(metadata.scopes_supported).toContain('content.press-releases.read')
    expect(metadata.scopes_supported).toContain('content.blog.read')
  })

  it('is searched, and in feeds, llms-full.txt and the editor', async () => {
    const hits = await get('/api/search?q=quasar')
    expect(hits.status).toBe(200)
    expect((hits.body.data as Json[]).map((h) => h.collection)).toEqual([
      'press-releases',
      'press-releases',
      'press-releases',
    ])
    const only = await get('/api/search?q=quasar&collection=press-releases&limit=1')
    expect(only.status).toBe(200)

    const feed = (await get('/feeds/press-releases.json')).body
    expect((feed.items as Json[]).map((i) => i.title)).toEqual(['Lineage Two', 'New Office', 'Partner Program'])
    const everything = (await get('/feeds/all.json')).body
    expect((everything.items as Json[]).some((i) => i.title === 'Lineage Two')).toBe(true)

    const llms = await (await fetch(`${gw.url}/llms-full.txt`)).text()
    expect(llms).toContain('/api/press-releases')
    expect(llms).toContain('`category`')

    const config = parse(await (await fetch(`${gw.url}/admin/config.yml`)).text()) as {
      collections: { name: string; folder: string; fields: { name: string; widget: string; options?: unknown[] }[] }[]
    }
    const editor = config.collections.find((c) => c.name === 'press-releases')!
    expect(editor.folder).toContain('press-releases')
    expect(editor.fields.find((f) => f.name === 'category')).toMatchObject({
      widget: 'select',
      options: ['product', 'company', 'partnership'],
    })
    expect(editor.fields.find((f) => f.name === 'contact')).toMatchObject({ widget: 'object' })
    expect(editor.fields.find((f) => f.name === 'quotes')).toMatchObject({ widget: 'list' })
  })

  it('is upcoming in MCP list_upcoming when dated, with only the details it declares', async () => {
    const { tools } = await client.listTools()
    const tool = tools.find((t) => t.name === 'list_upcoming')!
    expect(tool.title).toBe('Upcoming events, trainings and webinars')
    expect((tool.inputSchema.properties as Record<string, Json>).collection!.enum).toEqual([
      'events',
      'trainings',
      'webinars',
    ])
    const result = await client.callTool({ name: 'list_upcoming', arguments: { collection: 'trainings' } })
    expect(result.isError ?? false).toBe(false)
    const { items } = result.structuredContent as { items: Json[] }
    // Trainings say no place, status or registration: the events' details are null, and it is attended online.
    expect(items).toEqual([
      expect.objectContaining({
        collection: 'trainings',
        slug: 'lineage-basics',
        starts_at: '2099-05-04T09:00:00+02:00',
        timezone: 'Europe/Zurich',
        attendance_mode: 'online',
        event_status: null,
        city: null,
        registration_url: null,
      }),
    ])
    const text = (result.content as { text: string }[])[0]!.text
    expect(text).toContain('Lineage Basics (training) slug "lineage-basics"')
  })

  it('is listed by MCP list_content and described by describe_content_model', async () => {
    const { tools } = await client.listTools()
    const listTool = tools.find((t) => t.name === 'list_content')!
    const properties = listTool.inputSchema.properties as Record<string, Json>
    expect(properties.collection!.enum).toContain('press-releases')
    expect(properties.category).toBeDefined()
    // Its fields are in the output schemas, typed where records hold plain values.
    const getTool = tools.find((t) => t.name === 'get_content')!
    const metadata = (getTool.outputSchema!.properties as Record<string, { properties: Record<string, Json> }>)
      .metadata!
    expect(metadata.properties.category).toMatchObject({ enum: ['product', 'company', 'partnership'] })
    expect(metadata.properties.category!.description).toContain('What the release announces.')
    expect(metadata.properties.seats).toMatchObject({ type: 'integer' })
    expect(metadata.properties.contact!.description).toContain('press-releases: object field')

    const listed = await client.callTool({
      name: 'list_content',
      arguments: { collection: 'press-releases', category: ['product'], limit: 5 },
    })
    expect(listed.isError ?? false).toBe(false)
    const content = listed.structuredContent as { data: Json[] }
    expect(content.data.map((r) => r.slug)).toEqual(['lineage-two'])

    const described = await client.callTool({ name: 'describe_content_model', arguments: {} })
    const model = described.structuredContent as { collections: Json[] }
    const press = model.collections.find((c) => c.name === 'press-releases')!
    expect(press).toMatchObject({ label: 'press release', list: '/api/press-releases', dated: false })
    expect(press.filters).toContain('category')
    expect(press.fields).toContainEqual(
      expect.objectContaining({
        name: 'category',
        type: 'enum',
        values: ['product', 'company', 'partnership'],
        description: 'What the release announces.',
      }),
    )
    expect(press.fields).toContainEqual(
      expect.objectContaining({ name: 'case_study', type: 'reference', collection: 'case-studies' }),
    )
  })
})
