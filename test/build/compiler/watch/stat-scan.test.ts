/**
 * The watch mode's stat scan (every few seconds, and before a full pass) runs
 * beside the author's edits on the dev server's thread: its listing of
 * content/ must let other events in as it goes (at 10,000 files the listing
 * held the thread for 40 ms at once, and a save landing then waited), stop
 * when told, and list exactly what a build lists.
 */
import { type Dirent, readdirSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listContent, listContentGently, listingSteps, PAUSE, SourceStats } from '../../../../build/core/sources.ts'

const POSTS = 2000
let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'stat-scan-'))
  const posts = join(root, 'content', 'blog-posts')
  await mkdir(posts, { recursive: true })
  for (let i = 0; i < POSTS; i++) await writeFile(join(posts, `post-${String(i).padStart(4, '0')}.md`), `# ${i}\n`)
  await writeFile(join(posts, 'post-0001.de.md'), '# de\n')
  await writeFile(join(posts, 'notes.txt'), 'not content\n')
  // An item as a folder, with a translation; a hidden folder, which is not content.
  await mkdir(join(root, 'content', 'events', 'summit'), { recursive: true })
  await writeFile(join(root, 'content', 'events', 'summit', 'index.md'), '# summit\n')
  await writeFile(join(root, 'content', 'events', 'summit', 'index.fr.md'), '# sommet\n')
  await mkdir(join(root, 'content', 'events', '.drafts'), { recursive: true })
  await writeFile(join(root, 'content', 'events', '.drafts', 'index.md'), '# hidden\n')
  // case-studies/ and webinars/ are missing: nothing listed there.
}, 60_000)
afterAll(() => rm(root, { recursive: true, force: true }))

/** A folder's entries; none for a missing one (two collections are). */
function listed(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
  } catch {
    return []
  }
}

/** Count the turns of the event loop that run while `work` is under way. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0
  let running = true
  const turn = () => {
    if (!running) return
    turns++
    setImmediate(turn)
  }
  setImmediate(turn)
  const result = await work()
  running = false
  return { result, turns }
}

describe('the gentle listing of content/', () => {
  it('lists what a build lists, in the same order', async () => {
    const listed = await listContentGently(root, () => false)
    expect(listed).toEqual(listContent(root))
    expect(listed).toHaveLength(POSTS + 3)
    expect(listed!.map((p) => p.path)).toContain('content/events/summit/index.fr.md')
    expect(listed!.map((p) => p.path)).not.toContain('content/events/.drafts/index.md')
  })

  it('lets other events in while it lists thousands of files', async () => {
    const { result, turns } = await turnsDuring(() => listContentGently(root, () => false))
    expect(result).toHaveLength(POSTS + 3)
    expect(turns).toBeGreaterThanOrEqual(16)
  })

  it('pauses every 250 entries read and every 250 items made', () => {
    const steps = listingSteps(root)
    let pauses = 0
    for (let step = steps.next(); !step.done; ) {
      if (step.value === PAUSE) pauses++
      step = steps.next(step.value === PAUSE ? [] : listed(step.value.path))
    }
    // 2,004 entries read (2,002 posts' folder, 2 in events/) and 2,003 items made (2,001 posts, 2 events): 8 and 8.
    expect(pauses).toBe(16)
  })

  it('stops when told to', async () => {
    let asked = 0
    expect(await listContentGently(root, () => ++asked > 3)).toBeUndefined()
    expect(asked).toBe(4)
  })
})

describe('the stat scan', () => {
  it('finds files added, removed and rewritten since they were read', async () => {
    const stats = new SourceStats(root)
    const paths = listContent(root)
    // content/site.yaml is missing, and recorded so.
    for (const path of [...paths, { kind: 'site' } as const]) stats.takeSync(path)
    const known = paths.map((p) => p.path)
    expect(await stats.stale(known)).toEqual([])
    await writeFile(join(root, 'content', 'blog-posts', 'post-0002.md'), '# two, rewritten at more length\n')
    await writeFile(join(root, 'content', 'blog-posts', 'added.md'), '# added\n')
    await rm(join(root, 'content', 'events', 'summit', 'index.fr.md'))
    const result = await stats.stale(known)
    expect(result!.map((p) => (p.kind === 'item' ? p.path : p.kind)).sort()).toEqual([
      'content/blog-posts/added.md',
      'content/blog-posts/post-0002.md',
      'content/events/summit/index.fr.md',
    ])
  })

  it('stops when told to, with no answer', async () => {
    const stats = new SourceStats(root)
    expect(await stats.stale([], () => true)).toBeUndefined()
  })
})
