/**
 * The change feed over real git histories: a project is committed, built and
 * served; files are deleted, made drafts, edited and added in later commits;
 * each rebuild is asked for what changed since an earlier cursor. Also: the
 * answers match the OpenAPI document, cursors are validated, pages chain,
 * and a build without git or in a shallow clone says so.
 */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANGE_LOG_FILE, encodeCursor, type ChangesEnvelope } from '../../../contract/changes.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { recordId } from '../../../build/pipeline/derive.ts'
import { runCommand } from '../../helpers/commands.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { commitAll, git, initAndCommit } from '../../helpers/git.ts'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../../helpers/project.ts'

// After the posts' published_at (2026-01-05): a post committed before its date is scheduled (test/build/history/schedule.test.ts).
const T1 = 1_769_904_000 // 2026-02-01T00:00:00Z
const T2 = T1 + 86_400
const T3 = T2 + 86_400
const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z')
const post = (title: string, extra = '') => validPost(title, extra)

let project: TempProject
let gateway: TestGateway

async function changes(query = ''): Promise<ChangesEnvelope> {
  const path = `/api/changes${query}`
  const response = await fetch(`${gateway.url}${path}`)
  await assertMatchesContract('GET', path, response)
  expect(response.status, path).toBe(200)
  return (await response.json()) as ChangesEnvelope
}

async function rebuild(): Promise<string[]> {
  const { warnings } = await buildSite({ root: project.root, cache: false })
  await gateway.store.reload()
  return warnings
}

const summary = (envelope: ChangesEnvelope) => envelope.data.map((e) => `${e.change} ${e.slug} ${e.changed_at}`)

describe('change feed over a git history', () => {
  /** The cursors a client held after the first and the second commit. */
  let afterT1: string
  let afterT2: string

  // The whole history is made here, so each test below stands alone: T1 publishes four
  // posts; T2 removes bravo, makes charlie a draft, edits delta and adds echo; T3 adds foxtrot.
  beforeAll(async () => {
    project = await createProject({
      'content/blog-posts/alpha.md': post('Alpha'),
      'content/blog-posts/bravo.md': post('Bravo'),
      'content/blog-posts/charlie.md': post('Charlie'),
      'content/blog-posts/delta.md': post('Delta'),
      'content/blog-posts/draft-one.md': post('Draft one', 'draft: true\n'),
    })
    await initAndCommit(project.root, T1)
    const { warnings } = await buildSite({ root: project.root, cache: false })
    expect(warnings).toEqual([])
    gateway = await startGateway(project.dist)
    afterT1 = (await changes()).meta.next_cursor
    await git(project.root, ['rm', '-q', 'content/blog-posts/bravo.md'])
    await project.write('content/blog-posts/charlie.md', post('Charlie', 'draft: true\n'))
    await project.write('content/blog-posts/delta.md', post('Delta, edited'))
    // Unlike bravo (removed in the same commit): git would take a near copy for bravo renamed, a redirect.
    await project.write(
      'content/blog-posts/echo.md',
      `${post('Echo')}\n${'Echo has a body of its own, unlike any other post here. '.repeat(8)}\n`,
    )
    await commitAll(project.root, 'remove bravo, charlie to draft, edit delta, add echo', T2)
    expect(await rebuild()).toEqual([])
    afterT2 = (await changes()).meta.next_cursor
    await project.write('content/blog-posts/foxtrot.md', post('Foxtrot'))
    await commitAll(project.root, 'add foxtrot', T3)
    await rebuild()
  })
  afterAll(async () => {
    await gateway?.close()
    await project?.remove()
  })

  it('lists every published item once, created at its commit, with a cursor', async () => {
    const all = await changes()
    // A new client gets only what is published, and no tombstones.
    expect(summary(all)).toEqual([
      `created alpha ${iso(T1)}`,
      `created delta ${iso(T2)}`,
      `created echo ${iso(T2)}`,
      `created foxtrot ${iso(T3)}`,
    ])
    expect(all.data[0]).toMatchObject({
      collection: 'blog-posts',
      href: '/api/blog-posts/alpha',
      updated_at: '2026-01-05T00:00:00Z',
    })
    expect(all.meta).toMatchObject({ count: 4, has_more: false, since: null, history: 'git', warning: null })
    expect(all.links.next).toBe(`/api/changes?since=${all.meta.next_cursor}`)
    // Nothing happened since: an empty answer that keeps the cursor.
    const none = await changes(`?since=${all.meta.next_cursor}`)
    expect(none.data).toEqual([])
    expect(none.meta.next_cursor).toBe(all.meta.next_cursor)
    // A deleted item's address: gone, not unknown (test/build/history/redirects.test.ts has more).
    expect((await fetch(`${gateway.url}/api/blog-posts/bravo`)).status).toBe(410)
  })

  it('reports a removed file and a file made a draft as deletions (tombstones that later builds keep), an edit as updated, a new file as created', async () => {
    const since = await changes(`?since=${afterT1}`)
    expect(summary(since)).toEqual([
      `deleted bravo ${iso(T2)}`,
      `deleted charlie ${iso(T2)}`,
      `updated delta ${iso(T2)}`,
      `created echo ${iso(T2)}`,
      `created foxtrot ${iso(T3)}`,
    ])
    expect(since.data[0]).toMatchObject({
      change: 'deleted',
      href: null,
      updated_at: iso(T2),
      collection: 'blog-posts',
      id: recordId('blog-posts', 'bravo'),
    })
  })

  it('gives a newer cursor only the newer changes', async () => {
    expect(summary(await changes(`?since=${afterT2}`))).toEqual([`created foxtrot ${iso(T3)}`])
  })

  it('counts an uncommitted edit as a change at the last commit, after everything committed', async () => {
    const before = (await changes()).meta.next_cursor
    await project.write('content/blog-posts/alpha.md', post('Alpha, not yet committed'))
    try {
      await rebuild()
      expect(summary(await changes(`?since=${before}`))).toEqual([`updated alpha ${iso(T3)}`])
    } finally {
      await git(project.root, ['checkout', '-q', '--', 'content/blog-posts/alpha.md'])
      await rebuild()
    }
  })

  it('builds the same change log from the same content and history', async () => {
    await buildSite({ root: project.root, cache: false, force: true })
    const once = await readFile(join(project.dist, CHANGE_LOG_FILE))
    await buildSite({ root: project.root, cache: false, force: true })
    expect((await readFile(join(project.dist, CHANGE_LOG_FILE))).equals(once)).toBe(true)
  })

  it('pages with limit: has_more and next_cursor chain to the same items', async () => {
    const all = await changes(`?since=${afterT1}`)
    const seen: string[] = []
    let cursor = afterT1
    for (let page = 0; page < 10; page++) {
      const answer = await changes(`?since=${cursor}&limit=2`)
      seen.push(...summary(answer))
      expect(answer.links.next).toBe(`/api/changes?since=${answer.meta.next_cursor}&limit=2`)
      cursor = answer.meta.next_cursor
      if (!answer.meta.has_more) break
      expect(answer.data).toHaveLength(2)
    }
    expect(seen).toEqual(summary(all))
  })

  it('answers 400 for a malformed cursor or limit, and 304 for a matching ETag', async () => {
    const forged = Buffer.from('c1.12.x').toString('base64url')
    for (const query of [
      'since=abc',
      'since=',
      `since=${'A'.repeat(80)}`,
      `since=${forged}`,
      `since=${encodeCursor({ time: 1, seq: 1 })}=`,
      'since=a&since=b',
      'limit=0',
      'limit=1001',
      'limit=x',
    ]) {
      const response = await fetch(`${gateway.url}/api/changes?${query}`)
      await assertMatchesContract('GET', `/api/changes?${query}`, response)
      expect(response.status, query).toBe(400)
      const problem = (await response.json()) as { type: string; errors: { parameter: string }[] }
      expect(problem.type).toBe('/problems/invalid-parameter')
      expect(['since', 'limit']).toContain(problem.errors[0]!.parameter)
    }
    const answer = await fetch(`${gateway.url}/api/changes?since=${afterT1}`)
    const again = await fetch(`${gateway.url}/api/changes?since=${afterT1}`, {
      headers: { 'if-none-match': answer.headers.get('etag')! },
    })
    expect(again.status).toBe(304)
    expect(answer.headers.get('cache-control')).toMatch(/max-age=\d+/)
  })
})

describe('change feed, two files with the same bytes', () => {
  it("keeps them apart: each is its own item, created at the commit (the slug comes from each file's name)", async () => {
    const p = await createProject({
      'content/blog-posts/twin-a.md': post('Twin'),
      'content/blog-posts/twin-b.md': post('Twin'),
    })
    try {
      await initAndCommit(p.root, T1)
      await buildSite({ root: p.root, cache: false })
      const log = JSON.parse(await readFile(join(p.dist, CHANGE_LOG_FILE), 'utf8')) as { changes: unknown[][] }
      expect(log.changes.map((c) => `${c[2]} ${c[4]} ${c[0]}`)).toEqual([
        `created twin-a ${T1}`,
        `created twin-b ${T1}`,
      ])
    } finally {
      await p.remove()
    }
  })
})

describe('change feed without a full history', () => {
  const projects: TempProject[] = []
  afterAll(async () => {
    for (const p of projects) await p.remove()
  })

  it("without git: a warning at build time and in the feed's meta; items by updated_at", async () => {
    const p = await createProject({
      'content/blog-posts/older.md': post('Older', 'updated_at: 2026-02-01\n'),
      'content/blog-posts/newer.md': post('Newer', 'updated_at: 2026-03-01\n'),
    })
    projects.push(p)
    const { warnings } = await buildSite({ root: p.root, cache: false })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/no git history \(not a git repository.*cannot report deletions/)
    const served = await startGateway(p.dist)
    try {
      const answer = (await (await fetch(`${served.url}/api/changes`)).json()) as ChangesEnvelope
      expect(answer.meta.history).toBe('none')
      // The public answer says what is missing, never git's words (which name the build's folders).
      expect(answer.meta.warning).toBe(
        "the build could not read content/'s git history, so /api/changes lists the published items by their updated_at and cannot report deletions",
      )
      expect(summary(answer)).toEqual(['created older 2026-02-01T00:00:00Z', 'created newer 2026-03-01T00:00:00Z'])
    } finally {
      await served.close()
    }
    // The command line prints it as a warning line and still builds.
    const { code, stderr, stdout } = await runCommand('cli', ['build', '--root', p.root, '--force', '--no-cache'])
    expect(code, stderr).toBe(0)
    expect(stderr).toMatch(/^! .*no git history/m)
    expect(stdout).toMatch(/✓ built/)
  }, 60_000)

  it('in a shallow clone: history from the cut, marked shallow', async () => {
    const origin = await createProject({
      'content/blog-posts/kept.md': post('Kept'),
      'content/blog-posts/removed.md': post('Removed'),
    })
    projects.push(origin)
    await initAndCommit(origin.root, T1)
    await rm(join(origin.root, 'content/blog-posts/removed.md'))
    await commitAll(origin.root, 'remove', T2)
    await writeFile(join(origin.root, 'content/blog-posts/new.md'), post('New'))
    await commitAll(origin.root, 'add', T3)
    const clone = await createProject()
    projects.push(clone)
    await rm(clone.root, { recursive: true, force: true })
    await git(REPO_ROOT, ['clone', '-q', '--depth', '1', `file://${origin.root}`, clone.root])
    const { warnings } = await buildSite({ root: clone.root, cache: false })
    expect(warnings[0]).toMatch(/shallow/)
    const log = JSON.parse(await readFile(join(clone.dist, CHANGE_LOG_FILE), 'utf8')) as {
      history: string
      changes: unknown[][]
    }
    expect(log.history).toBe('shallow')
    // Everything appears at the one commit the clone has; the earlier deletion is not there.
    expect(log.changes.map((c) => `${c[2]} ${c[4]} ${c[0]}`)).toEqual([`created kept ${T3}`, `created new ${T3}`])
  }, 60_000)
})
