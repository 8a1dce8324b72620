/**
 * The preview API for reviewers (issue 52), on the whole gateway as
 * `npm start` wires it, with real API keys and real tokens of the embedded
 * issuer: a draft and a scheduled post are in the preview's list, item and
 * search answers with their state, and in no public answer, whatever the
 * credential; RFC 6750 answers without the preview scope; `private,
 * no-store` on every preview answer. The build writes the preview beside
 * dist/: no file of dist/ and no answer a crawler of the public paths
 * reaches names either post.
 */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PREVIEW_FILE, previewDirOf, type PreviewArtifact } from '../../../contract/preview.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { crawl } from '../schedule/crawl.ts'
import { DRAFT, RELEASE, SCHEDULED, writePreviewPosts } from './preview-posts.ts'
import { connectClient } from '../mcp/setup.ts'
import { distFiles, findings, queriesFor } from '../schedule/leaks.ts'

let project: TempProject
let gateway: TestGateway

beforeAll(async () => {
  project = await copyOfFixtureContent()
  await writePreviewPosts(project)
  gateway = await startGateway(project.dist, {
    filesDir: project.root,
    keys: { reviewer: 'preview.read', sandbox: 'sandbox.read', agent: 'agent.mcp' },
    clients: {
      legal: ['content.preview.read'],
      'legal-agent': ['mcp.tools.invoke', 'content.preview.read'],
      reader: ['api.read', 'mcp.tools.invoke'],
    },
  })
}, 120_000)

afterAll(async () => {
  await gateway?.close()
  await project?.remove()
})

const get = (path: string, credential?: string) =>
  fetch(`${gateway.url}${path}`, credential ? { headers: { authorization: `Bearer ${credential}` } } : {})

const PREVIEW_PATHS = [
  '/api/preview/blog-posts',
  '/api/preview/blog-posts?limit=5&sort=-published_at',
  `/api/preview/blog-posts/${DRAFT.slug}`,
  `/api/preview/blog-posts/${SCHEDULED.slug}`,
  '/api/preview/blog-posts/no-such-post',
  '/api/preview/search?q=tangerine',
  '/api/preview/blog-posts?limit=0',
]

describe('the preview API', () => {
  it('lists the draft and the scheduled post with their state, for a preview.read key and a token', async () => {
    const token = await gateway.token('legal', ['content.preview.read'])
    for (const credential of [gateway.keys.reviewer!, token]) {
      const res = await get('/api/preview/blog-posts?limit=100', credential)
      expect(res.status).toBe(200)
      const list = (await res.json()) as { data: { slug: string; state: string; release_at: string | null }[] }
      const bySlug = new Map(list.data.map((r) => [r.slug, r]))
      expect(bySlug.get(DRAFT.slug)).toMatchObject({ state: 'draft', release_at: null })
      expect(bySlug.get(SCHEDULED.slug)).toMatchObject({ state: 'scheduled', release_at: RELEASE })
      expect(list.data.filter((r) => r.state === 'published').length).toBeGreaterThan(3)
    }
  })

  it('answers the items with their state and body, and finds them by their words', async () => {
    const draft = await (await get(`/api/preview/blog-posts/${DRAFT.slug}`, gateway.keys.reviewer)).json()
    expect(draft).toMatchObject({ slug: DRAFT.slug, title: DRAFT.title, state: 'draft', release_at: null })
    expect(draft.body.html).toContain(DRAFT.phrase)
    const scheduled = await (await get(`/api/preview/blog-posts/${SCHEDULED.slug}`, gateway.keys.reviewer)).json()
    expect(scheduled).toMatchObject({ state: 'scheduled', release_at: RELEASE, published_at: RELEASE })
    const sparse = await (await get(`/api/preview/blog-posts/${DRAFT.slug}?fields=title`, gateway.keys.reviewer)).json()
    expect(sparse).toMatchObject({ title: DRAFT.title, state: 'draft', release_at: null })
    expect(sparse).not.toHaveProperty('body')
    const found = await (
      await get(`/api/preview/search?q=${encodeURIComponent(SCHEDULED.phrase)}`, gateway.keys.reviewer)
    ).json()
    expect(found.data[0]).toMatchObject({
      slug: SCHEDULED.slug,
      state: 'scheduled',
      href: `/api/preview/blog-posts/${SCHEDULED.slug}`,
    })
  })

  it('a published item is answered as the public item, with its state added', async () => {
    const list = await (await get('/api/blog-posts')).json()
    const slug = list.data[0].slug as string
    const pub = await (await get(`/api/blog-posts/${slug}`)).json()
    const preview = await (await get(`/api/preview/blog-posts/${slug}`, gateway.keys.reviewer)).json()
    expect(preview).toEqual({ ...pub, state: 'published', release_at: null })
  })

  it('keeps in the artifact only the records dist/ has not: a published one is read from its item file', async () => {
    const artifact = JSON.parse(
      await readFile(join(previewDirOf(project.dist), PREVIEW_FILE), 'utf8'),
    ) as PreviewArtifact
    const published = artifact.items.filter((e) => e.state === 'published')
    expect(published.length).toBeGreaterThan(3)
    for (const entry of published) expect(entry, entry.slug).not.toHaveProperty('record')
    const withheld = artifact.items.filter((e) => e.state !== 'published')
    expect(withheld.map((e) => e.slug)).toEqual(expect.arrayContaining([DRAFT.slug, SCHEDULED.slug]))
    for (const entry of withheld) expect(entry.record?.slug, entry.slug).toBe(entry.slug)
    // Every published item of the list comes back with its record, as dist/ has it.
    const list = await (await get('/api/preview/blog-posts?limit=100', gateway.keys.reviewer)).json()
    const publicList = await (await get('/api/blog-posts?limit=100')).json()
    const shown = list.data.filter((r: { state: string }) => r.state === 'published')
    expect(shown.map((r: { slug: string }) => r.slug)).toEqual(publicList.data.map((r: { slug: string }) => r.slug))
    expect(shown[0]).toEqual({ ...publicList.data[0], state: 'published', release_at: null })
  })

  it('is 401 without a credential and 403 insufficient_scope with a sandbox or agent key or a token without the scope', async () => {
    const anonymous = await get('/api/preview/blog-posts')
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="[^"]+"/)
    expect(await anonymous.text()).not.toContain(DRAFT.slug)
    const token = await gateway.token('reader', ['api.read', 'mcp.tools.invoke'])
    for (const credential of [gateway.keys.sandbox!, gateway.keys.agent!, token]) {
      for (const path of PREVIEW_PATHS) {
        const res = await get(path, credential)
        expect(res.status, path).toBe(403)
        expect(res.headers.get('www-authenticate'), path).toMatch(
          /error="insufficient_scope".*scope="content\.preview\.read"/,
        )
        const body = await res.text()
        for (const words of [DRAFT.title, DRAFT.phrase, SCHEDULED.title, SCHEDULED.phrase])
          expect(body, path).not.toContain(words)
      }
    }
    expect((await get('/api/preview/blog-posts', 'tw_live_000000000000000000000000000000000000')).status).toBe(401)
  })

  it('sends private, no-store (and the CDN headers saying so) on every preview answer', async () => {
    for (const credential of [undefined, gateway.keys.sandbox, gateway.keys.reviewer]) {
      for (const path of PREVIEW_PATHS) {
        const res = await get(path, credential)
        await res.arrayBuffer()
        expect(res.headers.get('cache-control'), `${path} ${res.status}`).toBe('private, no-store')
        expect(res.headers.get('netlify-cdn-cache-control'), path).toBe('no-store')
      }
    }
    const ok = await get(PREVIEW_PATHS[0]!, gateway.keys.reviewer)
    expect(ok.status).toBe(200)
    expect(ok.headers.get('vary')).toMatch(/Authorization/)
  })
})

describe('the MCP tools with include_drafts', () => {
  const text = (result: { content?: unknown }) => JSON.stringify(result.content)

  it('answer drafts and scheduled items with their state to a token with the preview scope', async () => {
    const client = await connectClient(
      gateway.url,
      await gateway.token('legal-agent', ['mcp.tools.invoke', 'content.preview.read']),
    )
    try {
      const listed = await client.callTool({
        name: 'list_content',
        arguments: { collection: 'blog-posts', limit: 100, include_drafts: true },
      })
      expect(listed.isError).toBeFalsy()
      const data = (listed.structuredContent as { data: { slug: string; state: string; release_at: string | null }[] })
        .data
      expect(data.find((r) => r.slug === DRAFT.slug)).toMatchObject({ state: 'draft' })
      expect(data.find((r) => r.slug === SCHEDULED.slug)).toMatchObject({ state: 'scheduled', release_at: RELEASE })
      const item = await client.callTool({
        name: 'get_content',
        arguments: { collection: 'blog-posts', slug: DRAFT.slug, include_drafts: true },
      })
      expect(item.isError).toBeFalsy()
      expect(item.structuredContent).toMatchObject({ slug: DRAFT.slug, state: 'draft' })
      expect((item.structuredContent as { markdown: string }).markdown).toContain(DRAFT.phrase)
      const found = await client.callTool({
        name: 'search_content',
        arguments: { query: SCHEDULED.phrase, include_drafts: true },
      })
      expect((found.structuredContent as { results: { slug: string; state: string }[] }).results[0]).toMatchObject({
        slug: SCHEDULED.slug,
        state: 'scheduled',
      })
      // Without the argument, the same credential gets what is published.
      const published = await client.callTool({
        name: 'get_content',
        arguments: { collection: 'blog-posts', slug: DRAFT.slug },
      })
      expect(published.isError).toBe(true)
    } finally {
      await client.close()
    }
  })

  it('refuse include_drafts with a tool error to an agent key or a token without the scope', async () => {
    for (const credential of [gateway.keys.agent!, await gateway.token('reader', ['mcp.tools.invoke'])]) {
      const client = await connectClient(gateway.url, credential)
      try {
        for (const [name, args] of [
          ['list_content', { collection: 'blog-posts', include_drafts: true }],
          ['get_content', { collection: 'blog-posts', slug: DRAFT.slug, include_drafts: true }],
          ['search_content', { query: DRAFT.phrase, include_drafts: true }],
        ] as const) {
          const result = await client.callTool({ name, arguments: args })
          expect(result.isError, name).toBe(true)
          expect(text(result), name).toMatch(/include_drafts needs the content\.preview\.read scope/)
          expect(text(result), name).not.toContain(DRAFT.title)
        }
      } finally {
        await client.close()
      }
    }
  })

  it('answer each call in flight by its own credential: drafts to the preview scope, refusals to the others', async () => {
    const reviewer = await gateway.token('legal-agent', ['mcp.tools.invoke', 'content.preview.read'])
    const credentials = [reviewer, gateway.keys.agent!]
    const calls = Array.from({ length: 24 }, async (_, i) => {
      const res = await fetch(`${gateway.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${credentials[i % 2]}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: {
            name: 'get_content',
            arguments: { collection: 'blog-posts', slug: DRAFT.slug, include_drafts: true },
          },
        }),
      })
      return (await res.json()) as { id: number; result: { isError?: boolean; content?: unknown } }
    })
    for (const [i, answer] of (await Promise.all(calls)).entries()) {
      expect(answer.id).toBe(i)
      if (i % 2 === 0) {
        expect(answer.result.isError).toBeFalsy()
        expect(text(answer.result)).toContain(DRAFT.phrase)
      } else {
        expect(answer.result.isError).toBe(true)
        expect(text(answer.result)).not.toContain(DRAFT.phrase)
      }
    }
  })
})

describe('the public routes', () => {
  const telltales = [DRAFT, SCHEDULED]

  it('give the same bytes with or without a preview credential, and never a draft', async () => {
    const paths = [
      '/api/blog-posts',
      '/api/blog-posts?limit=100',
      '/api/blog-posts?tag=product-update',
      `/api/search?q=${encodeURIComponent(DRAFT.phrase)}`,
      `/api/blog-posts/${DRAFT.slug}`,
      `/api/blog-posts/${SCHEDULED.slug}`,
    ]
    for (const path of paths) {
      const anonymous = await get(path)
      const reviewer = await get(path, gateway.keys.reviewer)
      expect(reviewer.status, path).toBe(anonymous.status)
      const body = await reviewer.text()
      expect(body, path).toBe(await anonymous.text())
      // A search answer repeats its query: what it must not have is a hit.
      for (const item of telltales) expect(body, path).not.toContain(item.title)
    }
    expect((await get(`/api/blog-posts/${DRAFT.slug}`, gateway.keys.reviewer)).status).toBe(404)
  })

  it('the preview is beside dist/, and no file of dist/ names the draft or the scheduled post', async () => {
    const files = await distFiles(project.dist)
    expect(files.size).toBeGreaterThan(500)
    for (const item of telltales) expect(findings(files, item)).toEqual({ slug: [], title: [], phrase: [] })
    // The scan would find them: the preview beside dist/ has both.
    const preview = await distFiles(previewDirOf(project.dist))
    expect([...preview.keys()]).toEqual([PREVIEW_FILE])
    for (const item of telltales) expect(findings(preview, item).phrase).toEqual([PREVIEW_FILE])
    expect((await stat(join(project.root, 'dist-preview', PREVIEW_FILE))).isFile()).toBe(true)
  })

  it('no answer a crawler of every public path reaches names them (the preview paths it meets are 401s)', async () => {
    const searches = queriesFor(telltales).map((q) => `/api/search?q=${encodeURIComponent(q)}`)
    const answers = await crawl(gateway.url, ['https://api.tidewater.example'], searches)
    expect(answers.size).toBeGreaterThan(100)
    for (const item of telltales) expect(findings(answers, item)).toEqual({ slug: [], title: [], phrase: [] })
  }, 120_000)
})
