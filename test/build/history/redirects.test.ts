/**
 * Redirects from a real git history: files renamed and committed (once, then
 * twice), a `slug:` changed, an alias, a file deleted. The gateway answers
 * each old address as the redirects' index says (301 in one hop, 410 with the
 * tombstone), /api/redirects lists them in the marketing site's page URLs,
 * the Netlify rules carry the same 301s, and an alias that collides with a
 * live slug or another alias is an author error at its line and column.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { ContentErrors } from '../../../build/core/errors.ts'
import { encodeCursor } from '../../../contract/changes.ts'
import type { RedirectsEnvelope } from '../../../contract/redirects.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { connectClient } from '../../gateway/mcp/setup.ts'
import { commitAll, git, initAndCommit } from '../../helpers/git.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'

const T1 = 1_769_904_000 // 2026-02-01T00:00:00Z, after the posts' published_at
const T2 = T1 + 86_400
const T3 = T2 + 86_400
const SITE = 'https://www.fixture.example'

/** A post with a body of its own: git pairs a deletion with an addition only when the bytes are nearly the same. */
const post = (title: string, extra = '') =>
  `${validPost(title, extra)}\n${`${title} has words of its own, which no other post here shares. `.repeat(6)}\n`

let project: TempProject
let gateway: TestGateway

async function ask(path: string): Promise<Response> {
  const response = await fetch(`${gateway.url}${path}`, { redirect: 'manual' })
  await assertMatchesContract('GET', path, response.clone())
  return response
}

describe('redirects over a git history', () => {
  beforeAll(async () => {
    project = await createProject({
      'content/blog-posts/alpha.md': post('Alpha'),
      'content/blog-posts/bravo.md': post('Bravo'),
      'content/blog-posts/charlie.md': post('Charlie', 'aliases: [old-charlie, /2019/05/charlie/]\n'),
      'content/blog-posts/delta.md': post('Delta'),
    })
    await initAndCommit(project.root, T1)
    await git(project.root, ['mv', 'content/blog-posts/alpha.md', 'content/blog-posts/alpha-two.md'])
    await git(project.root, ['rm', '-q', 'content/blog-posts/bravo.md'])
    await project.write('content/blog-posts/delta.md', post('Delta', 'slug: delta-renamed\n'))
    await commitAll(project.root, 'rename alpha, remove bravo, change the slug of delta', T2)
    await git(project.root, ['mv', 'content/blog-posts/alpha-two.md', 'content/blog-posts/alpha-three.md'])
    await commitAll(project.root, 'rename alpha again', T3)
    const { warnings } = await buildSite({ root: project.root, cache: false })
    expect(warnings).toEqual([])
    gateway = await startGateway(project.dist, { env: { MCP_AUTH: 'off' } })
  }, 120_000)
  afterAll(async () => {
    await gateway?.close()
    await project?.remove()
  })

  it('answers a renamed file’s old slug 301 to where it is now, in one hop however many renames, keeping the query', async () => {
    for (const old of ['alpha', 'alpha-two']) {
      const response = await ask(`/api/blog-posts/${old}?fields=title`)
      expect(response.status, old).toBe(301)
      expect(response.headers.get('location')).toBe('/api/blog-posts/alpha-three?fields=title')
    }
    const moved = await fetch(`${gateway.url}/api/blog-posts/alpha`)
    expect(moved.status).toBe(200)
    expect(((await moved.json()) as { slug: string }).slug).toBe('alpha-three')
  })

  it('answers a changed slug: and an alias 301 like a rename', async () => {
    const delta = await ask('/api/blog-posts/delta')
    expect([delta.status, delta.headers.get('location')]).toEqual([301, '/api/blog-posts/delta-renamed'])
    const alias = await ask('/api/blog-posts/old-charlie')
    expect([alias.status, alias.headers.get('location')]).toEqual([301, '/api/blog-posts/charlie'])
  })

  it('answers a deleted file’s address 410 with a problem naming its tombstone', async () => {
    const response = await ask('/api/blog-posts/bravo')
    expect(response.status).toBe(410)
    const body = (await response.json()) as { type: string; tombstone: { slug: string; id: string } }
    expect(body.type).toBe('/problems/gone')
    expect(body.tombstone.slug).toBe('bravo')
    const changes = (await (
      await fetch(`${gateway.url}/api/changes?since=${encodeCursor({ time: T1, seq: 0 })}`)
    ).json()) as {
      data: { id: string; change: string; slug: string }[]
    }
    expect(changes.data.find((c) => c.slug === 'bravo')).toMatchObject({ change: 'deleted', id: body.tombstone.id })
    // An address no item ever had is still unknown.
    expect((await ask('/api/blog-posts/never-was')).status).toBe(404)
  })

  it('lists every redirect and alias in the marketing site’s page URLs at /api/redirects', async () => {
    const response = await ask('/api/redirects')
    expect(response.status).toBe(200)
    const { data } = (await response.json()) as RedirectsEnvelope
    expect(data).toEqual([
      { from: `${SITE}/2019/05/charlie/`, to: `${SITE}/blog/charlie`, status: 301 },
      { from: `${SITE}/blog/alpha`, to: `${SITE}/blog/alpha-three`, status: 301 },
      { from: `${SITE}/blog/alpha-two`, to: `${SITE}/blog/alpha-three`, status: 301 },
      { from: `${SITE}/blog/bravo`, to: null, status: 410 },
      { from: `${SITE}/blog/delta`, to: `${SITE}/blog/delta-renamed`, status: 301 },
      { from: `${SITE}/blog/old-charlie`, to: `${SITE}/blog/charlie`, status: 301 },
    ])
    // Never a loop, never a live item redirected: every target is a published page.
    const live = new Set(['alpha-three', 'charlie', 'delta-renamed'].map((s) => `${SITE}/blog/${s}`))
    for (const entry of data) if (entry.to) expect(live.has(entry.to), entry.to).toBe(true)
  })

  it('writes the same 301s into the Netlify rules', async () => {
    const rules = (await readFile(join(project.dist, '_redirects'), 'utf8')).split('\n')
    expect(rules).toContain('/api/blog-posts/alpha  /api/blog-posts/alpha-three  301')
    expect(rules).toContain('/api/blog-posts/alpha-two  /api/blog-posts/alpha-three  301')
    expect(rules).toContain('/api/blog-posts/old-charlie  /api/blog-posts/charlie  301')
    // A deleted item's address has no rule: the function answers its 410.
    expect(rules.filter((r) => r.startsWith('/api/blog-posts/bravo '))).toEqual([])
  })

  it('lets the MCP tools follow an old address: get_content, fetch and search find the item and say it moved', async () => {
    const client = await connectClient(gateway.url)
    try {
      const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text
      const read = await client.callTool({
        name: 'get_content',
        arguments: { collection: 'blog-posts', slug: 'alpha' },
      })
      expect(read.isError ?? false).toBe(false)
      expect(read.structuredContent).toMatchObject({ slug: 'alpha-three', moved_from: 'blog-posts/alpha' })
      expect(text(read)).toContain('Moved: blog-posts/alpha is now blog-posts/alpha-three')
      const gone = await client.callTool({
        name: 'get_content',
        arguments: { collection: 'blog-posts', slug: 'bravo' },
      })
      expect(gone.isError).toBe(true)
      expect(text(gone)).toContain('was deleted')
      const fetched = await client.callTool({ name: 'fetch', arguments: { id: 'blog-posts/old-charlie' } })
      expect(fetched.structuredContent).toMatchObject({
        id: 'blog-posts/charlie',
        metadata: { moved_from: 'blog-posts/old-charlie' },
      })
      const found = await client.callTool({ name: 'search', arguments: { query: 'blog-posts/alpha-two' } })
      const { results } = found.structuredContent as { results: { id: string; moved_from?: string }[] }
      expect(results[0]).toMatchObject({ id: 'blog-posts/alpha-three', moved_from: 'blog-posts/alpha-two' })
    } finally {
      await client.close()
    }
  })
})

describe('aliases that collide', () => {
  it.each([
    [
      'a live slug',
      'aliases: [bravo]\n',
      'alpha',
      'bravo is the slug of the published item content/blog-posts/bravo.md',
    ],
    // At the second file (in path order), naming the first's place.
    [
      'another item’s alias',
      'aliases: [old-post]\n',
      'bravo',
      'old-post is also an alias of the item at content/blog-posts/alpha.md:7:11',
    ],
    ['a live page', 'aliases: [/blog/bravo/]\n', 'alpha', 'the page of the published item content/blog-posts/bravo.md'],
  ])('are an author error at file:line:col: an alias that is %s', async (_, aliases, at, message) => {
    const project = await createProject({
      'content/blog-posts/alpha.md': post('Alpha', aliases),
      'content/blog-posts/bravo.md': post('Bravo', 'aliases: [old-post]\n'),
    })
    try {
      await initAndCommit(project.root, T1)
      const failed = await buildSite({ root: project.root, cache: false }).catch((error: unknown) => error)
      expect(failed).toBeInstanceOf(ContentErrors)
      const errors = (failed as ContentErrors).errors.map((e) => e.message)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(new RegExp(`^content/blog-posts/${at}\\.md:7:11 aliases\\[0\\]: `))
      expect(errors[0]).toContain(message)
    } finally {
      await project.remove()
    }
  })
})
