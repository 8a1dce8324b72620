/**
 * The watch mode end to end: a real gateway on an ephemeral port over a
 * temporary copy of the content, real file edits, answers over HTTP.
 */
import { open, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startDev, type DevServer } from '../../../../gateway/dev-server.ts'
import { copyOfFixtureContent, validPost, type TempProject } from '../../../helpers/project.ts'
import { expectDevEqualsFullBuild } from './full-build-equality.ts'
import { answerAt, until } from '../../../helpers/until.ts'

/** The bar: an edit is served within a second. */
const DEADLINE_MS = 1000
const POST = 'content/blog-posts/bigquery-support-ga.md'
const ITEM = '/api/blog-posts/bigquery-support-ga'

describe('npm run dev', () => {
  let project: TempProject
  let dev: DevServer
  const printed: string[] = []

  /** Poll the gateway until `check` holds; fails with the last answer after the deadline. */
  const served = (path: string, check: (status: number, body: string) => boolean) =>
    until(() => answerAt(`${dev.url}${path}`), {
      holds: ({ status, body }) => check(status, body),
      what: path,
      show: ({ status, body }) => `${status} ${body.slice(0, 200)}`,
      timeoutMs: DEADLINE_MS,
      everyMs: 10,
    })

  /** Wait until a line printed after `start` passes `check`; the line. */
  const printedLine = (start: number, check: (line: string) => boolean, what: string) =>
    until(() => printed.slice(start).find(check), { what, timeoutMs: DEADLINE_MS, everyMs: 10 })

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
    await served(ITEM, (status, body) => status === 200 && body.includes(`"title":"${ORIGINAL_TITLE}"`))
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
    await served(ITEM, (status, body) => status === 200 && body.includes('"title":"BigQuery support, edited live"'))
    const list = await served('/api/blog-posts?limit=100', (_, body) => body.includes('BigQuery support, edited live'))
    expect(list.status).toBe(200)
  })

  it('serves the last of quick successive saves, 20 ms apart', async () => {
    const source = await readFile(join(project.root, POST), 'utf8')
    for (const n of [1, 2, 3]) {
      await writeFile(join(project.root, POST), source.replace(/^title: .*$/m, `title: Saved ${n} times`))
      await new Promise((r) => setTimeout(r, 20))
    }
    await served(ITEM, (status, body) => status === 200 && body.includes('"title":"Saved 3 times"'))
  })

  it('waits out a save that empties the file before writing it: no errors printed, the saved text served', async () => {
    const source = await readFile(join(project.root, POST), 'utf8')
    const start = printed.length
    // As writeFile and many editors save: the file truncated (an event), its text written a moment later.
    const file = await open(join(project.root, POST), 'w')
    await new Promise((r) => setTimeout(r, 40))
    await file.writeFile(source.replace(/^title: .*$/m, 'title: Saved in two steps'))
    await file.close()
    await served(ITEM, (status, body) => status === 200 && body.includes('"title":"Saved in two steps"'))
    await dev.settled()
    expect(printed.slice(start).filter((line) => line.startsWith('✗') || line.startsWith(POST))).toEqual([])
  })

  it('reports a file left empty, once its recheck finds it still empty', async () => {
    const start = printed.length
    await writeFile(join(project.root, POST), '')
    await printedLine(start, (l) => l.startsWith(`${POST}:1:1 frontmatter: this file is empty`), 'the error line')
    expect(await title()).toBe(ORIGINAL_TITLE)
  })

  it('reports an invalid edit with file:line:col and keeps serving the last good build', async () => {
    const before = (await (await fetch(`${dev.url}/api/health`)).json()) as { build: { id: string } }
    const source = await readFile(join(project.root, POST), 'utf8')
    const start = printed.length
    await writeFile(join(project.root, POST), source.replace(/^published_at: .*$/m, 'published_at: not a date'))
    await printedLine(start, (l) => l.startsWith(`${POST}:5:`), 'the error line')
    const at = start + printed.slice(start).findIndex((l) => l.startsWith(`${POST}:5:`))
    expect(printed[at]).toMatch(/^content\/blog-posts\/bigquery-support-ga\.md:5:\d+ published_at: /)
    // The summary follows the errors (a full pass of an earlier edit may print after it).
    expect(printed[at + 1]).toBe(`✗ 1 content error; still serving build ${before.build.id}`)
    expect(await title()).toBe(ORIGINAL_TITLE)
    const seen = printed.length
    await writeFile(join(project.root, POST), source)
    const fixed = await printedLine(seen, (l) => l.startsWith(`✓ ${POST} `), 'the fixed line')
    expect(fixed).toContain(`→ serving build ${before.build.id}`)
  })

  it('publishes an added file and removes a deleted one', async () => {
    await writeFile(join(project.root, 'content/blog-posts/brand-new.md'), validPost('A brand new post'))
    await served('/api/blog-posts/brand-new', (status, body) => status === 200 && body.includes('A brand new post'))
    // Nothing links to this post, so it may go.
    await rm(join(project.root, 'content/blog-posts/dbt-tests-are-not-enough.md'))
    const gone = await served('/api/blog-posts/dbt-tests-are-not-enough', (status) => status === 404)
    expect(gone.body).toContain('"status":404')
    const list = await served(
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
    expect(await printedLine(seen, (l) => l.startsWith(link), 'the broken link')).toMatch(
      / body: link https:\/\/www\.tidewater\.example\/blog\/bigquery-support-ga points to "blog-posts\/bigquery-support-ga", which is not an item/,
    )
    expect((await fetch(`${dev.url}${ITEM}`)).status).toBe(200)
    await writeFile(join(project.root, POST), source)
    await served(ITEM, (status) => status === 200)
  })

  it('writes dist/ once changes settle, byte-identical to a full build of the same content', async () => {
    await dev.settled()
    await expectDevEqualsFullBuild(project, dev)
  })
})
