/**
 * The watch mode end to end: a real gateway on an ephemeral port over a
 * temporary copy of the content, real file edits, answers over HTTP.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startDev, type DevServer } from '../../../../gateway/dev-server.ts'
import { copyOfFixtureContent, validPost, type TempProject } from '../../../helpers/project.ts'
import { expectDevEqualsFullBuild } from './full-build-equality.ts'

/** The bar: an edit is served within a second. */
const DEADLINE_MS = 1000
const POST = 'content/blog-posts/bigquery-support-ga.md'
const ITEM = '/api/blog-posts/bigquery-support-ga'

describe('npm run dev', () => {
  let project: TempProject
  let dev: DevServer
  const printed: string[] = []

  /** Poll the gateway until `check` holds; fails with the last answer after the deadline. */
  async function until(
    path: string,
    check: (status: number, body: string) => boolean,
  ): Promise<{ status: number; body: string }> {
    const deadline = Date.now() + DEADLINE_MS
    for (;;) {
      const response = await fetch(`${dev.url}${path}`)
      const answer = { status: response.status, body: await response.text() }
      if (check(answer.status, answer.body)) return answer
      if (Date.now() > deadline)
        throw new Error(`${path} still answers ${answer.status} ${answer.body.slice(0, 200)} after ${DEADLINE_MS} ms`)
      await new Promise((r) => setTimeout(r, 10))
    }
  }

  const title = async () => (JSON.parse(await (await fetch(`${dev.url}${ITEM}`)).text()) as { title: string }).title
  const ORIGINAL_TITLE = 'BigQuery support is generally available across the Tidewater platform'

  /** The content as copied, so each test can put it back and none depends on another. */
  let original: Map<string, string>
  const contentFiles = async () =>
    (await readdir(join(project.root, 'content'), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))

  beforeAll(async () => {
    project = await copyOfFixtureContent()
    original = new Map(
      await Promise.all((await contentFiles()).map(async (f) => [f, await readFile(f, 'utf8')] as const)),
    )
    dev = await startDev({ root: project.root, port: 0, print: (line) => printed.push(line) })
  })
  afterEach(async () => {
    for (const file of await contentFiles()) if (!original.has(file)) await rm(file)
    for (const [file, text] of original)
      if ((await readFile(file, 'utf8').catch(() => undefined)) !== text) await writeFile(file, text)
    await dev.settled()
    await until(ITEM, (status, body) => status === 200 && body.includes(`"title":"${ORIGINAL_TITLE}"`))
  })
  afterAll(async () => {
    await dev?.close()
    await project?.remove()
  })

  it('serves the content from memory at once', async () => {
    expect(await title()).toBe(ORIGINAL_TITLE)
    expect((await fetch(`${dev.url}/api/health`)).status).toBe(200)
  })

  it('serves an edited title without a restart, in the item and in the lists', async () => {
    const source = await readFile(join(project.root, POST), 'utf8')
    await writeFile(join(project.root, POST), source.replace(/^title: .*$/m, 'title: BigQuery support, edited live'))
    await until(ITEM, (status, body) => status === 200 && body.includes('"title":"BigQuery support, edited live"'))
    const list = await until('/api/blog-posts?limit=100', (_, body) => body.includes('BigQuery support, edited live'))
    expect(list.status).toBe(200)
  })

  it('serves the last of quick successive saves, 20 ms apart', async () => {
    const source = await readFile(join(project.root, POST), 'utf8')
    for (const n of [1, 2, 3]) {
      await writeFile(join(project.root, POST), source.replace(/^title: .*$/m, `title: Saved ${n} times`))
      await new Promise((r) => setTimeout(r, 20))
    }
    await until(ITEM, (status, body) => status === 200 && body.includes('"title":"Saved 3 times"'))
  })

  it('reports an invalid edit with file:line:col and keeps serving the last good build', async () => {
    const before = (await (await fetch(`${dev.url}/api/health`)).json()) as { build: { id: string } }
    const source = await readFile(join(project.root, POST), 'utf8')
    const start = printed.length
    await writeFile(join(project.root, POST), source.replace(/^published_at: .*$/m, 'published_at: not a date'))
    const deadline = Date.now() + DEADLINE_MS
    while (!printed.slice(start).some((l) => l.startsWith(`${POST}:5:`)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10))
    const at = start + printed.slice(start).findIndex((l) => l.startsWith(`${POST}:5:`))
    expect(printed[at]).toMatch(/^content\/blog-posts\/bigquery-support-ga\.md:5:\d+ published_at: /)
    // The summary follows the errors (a full pass of an earlier edit may print after it).
    expect(printed[at + 1]).toBe(`✗ 1 content error; still serving build ${before.build.id}`)
    expect(await title()).toBe(ORIGINAL_TITLE)
    const seen = printed.length
    await writeFile(join(project.root, POST), source)
    const fixed = () => printed.slice(seen).find((l) => l.startsWith(`✓ ${POST} `))
    while (!fixed() && Date.now() < deadline + DEADLINE_MS) await new Promise((r) => setTimeout(r, 10))
    expect(fixed()).toContain(`→ serving build ${before.build.id}`)
  })

  it('publishes an added file and removes a deleted one', async () => {
    await writeFile(join(project.root, 'content/blog-posts/brand-new.md'), validPost('A brand new post'))
    await until('/api/blog-posts/brand-new', (status, body) => status === 200 && body.includes('A brand new post'))
    // Nothing links to this post, so it may go.
    await rm(join(project.root, 'content/blog-posts/dbt-tests-are-not-enough.md'))
    const gone = await until('/api/blog-posts/dbt-tests-are-not-enough', (status) => status === 404)
    expect(gone.body).toContain('"status":404')
    const list = await until(
      '/api/blog-posts?limit=100',
      (_, body) => !body.includes('"slug":"dbt-tests-are-not-enough"'),
    )
    expect(list.body).toContain('"slug":"brand-new"')
  })

  it('keeps serving a deleted item another one links to, and names the link, until the file is back', async () => {
    const source = await readFile(join(project.root, POST), 'utf8')
    const seen = printed.length
    await rm(join(project.root, POST))
    const link = 'content/webinars/observability-roadmap-2027.md:37:'
    const deadline = Date.now() + DEADLINE_MS
    while (!printed.slice(seen).some((l) => l.startsWith(link)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10))
    expect(printed.slice(seen).find((l) => l.startsWith(link))).toMatch(
      / body: link https:\/\/www\.tidewater\.example\/blog\/bigquery-support-ga points to "blog-posts\/bigquery-support-ga", which is not an item/,
    )
    expect((await fetch(`${dev.url}${ITEM}`)).status).toBe(200)
    await writeFile(join(project.root, POST), source)
    await until(ITEM, (status) => status === 200)
  })

  it('writes dist/ once changes settle, byte-identical to a full build of the same content', async () => {
    await dev.settled()
    await expectDevEqualsFullBuild(project, dev.url)
  })
})
