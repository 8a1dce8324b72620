/**
 * A build with images to process runs under glibc's arenas capped
 * (build/core/allocator.ts): `build` starts itself again with
 * MALLOC_ARENA_MAX=2 as the same process (its id, so whoever started it can
 * still signal or kill it), once it knows there is something to build; an
 * operator's own value is kept, and a build of text alone starts once. Read from /proc, so on Linux only.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { photo } from '../../helpers/images.ts'
import { createProject, REPO_ROOT, type TempProject } from '../../helpers/project.ts'
import { runTsx } from '../../helpers/run-tsx.ts'

const POST = `---
title: A post with a picture
published_at: 2026-01-05
image: { url: cover.jpg, alt: A gradient }
authors:
  - name: Ada Author
---
First paragraph.
`

/** What /proc says of a process while it runs: its environment and command line, each sample. */
async function watchProcess(pid: number, seen: { environ: string[]; cmdline: string[] }, done: () => boolean) {
  while (!done()) {
    const [environ, cmdline] = await Promise.all(
      ['environ', 'cmdline'].map((f) => readFile(`/proc/${pid}/${f}`, 'utf8').catch(() => '')),
    )
    if (environ) seen.environ.push(environ)
    if (cmdline) seen.cmdline.push(cmdline)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** Build `project` from the sources, as `build/cli.ts build`, sampling the process while it runs. */
async function buildWatched(project: TempProject, env: Record<string, string | undefined>) {
  const seen = { environ: [] as string[], cmdline: [] as string[] }
  let finished = false
  let watching: Promise<void> | undefined
  const run = await runTsx([join(REPO_ROOT, 'build/cli.ts'), 'build', '--root', project.root], env, (pid) => {
    watching = watchProcess(pid, seen, () => finished)
  })
  finished = true
  await watching
  return { run, seen }
}

describe.runIf(process.platform === 'linux')('the allocator a build runs under', () => {
  let project: TempProject
  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/post.md': POST })
    await writeFile(join(project.root, 'content/blog-posts/cover.jpg'), await photo(2400, 1600))
  })
  afterAll(() => project?.remove())

  it('starts itself again, as the same process, with MALLOC_ARENA_MAX=2 when it has to build', async () => {
    const { run, seen } = await buildWatched(project, { MALLOC_ARENA_MAX: undefined })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/✓ built \d+ files into dist\//)
    expect(seen.environ.some((e) => e.split('\0').includes('MALLOC_ARENA_MAX=2'))).toBe(true)
    // The same process id, its arguments as given, and --force: it knows already that dist/ is out of date.
    expect(seen.cmdline.at(-1)!.split('\0')).toEqual(expect.arrayContaining(['--root', project.root, '--force']))
  })

  it('keeps an operator’s MALLOC_ARENA_MAX and starts once', async () => {
    await project.write('content/blog-posts/post.md', POST.replace('First paragraph.', 'An edited paragraph.'))
    const { run, seen } = await buildWatched(project, { MALLOC_ARENA_MAX: '4' })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/✓ built \d+ files into dist\//)
    expect(seen.environ.every((e) => e.split('\0').includes('MALLOC_ARENA_MAX=4'))).toBe(true)
    expect(seen.cmdline.some((c) => c.split('\0').includes('--force'))).toBe(false)
  })

  it('builds text alone as it is: no second start', async () => {
    const text = await createProject({ 'content/blog-posts/post.md': POST.replace(/image: .*\n/, '') })
    try {
      const { run, seen } = await buildWatched(text, { MALLOC_ARENA_MAX: undefined })
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toMatch(/✓ built \d+ files into dist\//)
      expect(seen.environ.length).toBeGreaterThan(0)
      expect(seen.environ.some((e) => e.split('\0').includes('MALLOC_ARENA_MAX=2'))).toBe(false)
      expect(seen.cmdline.some((c) => c.split('\0').includes('--force'))).toBe(false)
    } finally {
      await text.remove()
    }
  })
})
