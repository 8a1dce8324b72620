/**
 * Faults around the built artifacts: a dist/ rebuilt and reloaded while
 * requests are in flight (every answer wholly from one build), and a corrupt
 * or tampered dist/ (health 503, the last good build still served, no crash,
 * recovery on the next good build) — in-process and through `npm start`'s
 * SIGHUP reload.
 */
import { spawn } from 'node:child_process'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { etagOf } from '../../../contract/etag.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { ArtifactStore } from '../../../gateway/artifacts.ts'
import { commandArgs } from '../../helpers/commands.ts'
import { startGateway, useBuiltGateway } from '../../helpers/gateway.ts'
import { createProject, REPO_ROOT, type TempProject } from '../../helpers/project.ts'
import { problemDefect } from '../../helpers/problem-assert.ts'
import { until } from '../../helpers/until.ts'

// Thousands of long-tail reads from one address while builds swap: far past one client's budget of computed answers, which is not what this tests.
const UNLIMITED = { env: { COMPUTED_RATE_LIMIT_PER_MINUTE: '0' } }

const BASE_POSTS = 12

/** Generation `gen` of the content: BASE_POSTS + gen posts, every title naming the generation. */
async function writeGeneration(project: TempProject, gen: number): Promise<void> {
  await rm(join(project.root, 'content', 'blog-posts'), { recursive: true, force: true })
  for (let i = 0; i < BASE_POSTS + gen; i++) {
    const day = String((i % 28) + 1).padStart(2, '0')
    await project.write(
      `content/blog-posts/post-${i}.md`,
      `---\ntitle: Gen ${gen} post ${i}\npublished_at: 2026-0${(i % 9) + 1}-${day}\ntags: [testing]\nauthors:\n  - name: Gen ${gen}\n---\nBody of generation ${gen}.\n`,
    )
  }
}

/** A project holding generation 0 of the content. */
async function generationZero(): Promise<TempProject> {
  const project = await createProject()
  await writeGeneration(project, 0)
  return project
}

describe('dist/ swapped while requests are in flight', () => {
  const ctx = useBuiltGateway(generationZero, UNLIMITED)

  /** The generation a list answer belongs to, after checking it is wholly from one build. */
  function checkList(body: string, headers: Headers): number {
    const list = JSON.parse(body) as { data: { title: string }[]; meta: { total: number; pages: number; page: number } }
    expect(headers.get('etag')).toBe(etagOf(Buffer.from(body)))
    const gens = new Set(list.data.map((d) => Number(/^Gen (\d+) /.exec(d.title)![1])))
    expect(gens.size).toBe(1)
    const [gen] = gens
    expect(list.meta.total).toBe(BASE_POSTS + gen!)
    expect(Number(headers.get('x-total-count'))).toBe(list.meta.total)
    expect((headers.get('link') ?? '').includes('rel="next"')).toBe(list.meta.page < list.meta.pages)
    return gen!
  }

  it('answers every request from exactly one build, old or new', async () => {
    const seen = new Set<number>()
    let answers = 0
    let done = false
    const hammer = async (path: string, check: (body: string, headers: Headers) => number) => {
      while (!done) {
        const res = await fetch(`${ctx.gateway.url}${path}`)
        const body = await res.text()
        expect(res.status).toBe(200)
        seen.add(check(body, res.headers))
        answers++
      }
    }
    const checkItem = (body: string, headers: Headers) => {
      expect(headers.get('etag')).toBe(etagOf(Buffer.from(body)))
      const item = JSON.parse(body) as { title: string; authors: { name: string }[]; body: { markdown: string } }
      const gen = Number(/^Gen (\d+) /.exec(item.title)![1])
      expect(item.authors[0]!.name).toBe(`Gen ${gen}`)
      expect(item.body.markdown).toContain(`generation ${gen}.`)
      return gen
    }
    const loops = [
      hammer('/api/blog-posts?limit=100', checkList),
      hammer('/api/blog-posts?limit=5&page=2', checkList),
      hammer('/api/blog-posts?limit=3&tag=testing', checkList),
      hammer('/api/blog-posts/post-0', checkItem),
    ]
    try {
      for (let gen = 1; gen <= 4; gen++) {
        await writeGeneration(ctx.project, gen)
        // Reloads racing the build: a dist/ caught mid-swap fails to load and the old build stays.
        const racing = Array.from({ length: 3 }, () => ctx.gateway.store.reload().catch(() => undefined))
        await buildSite({ root: ctx.project.root, cache: false })
        await Promise.all(racing)
        const snapshot = await ctx.gateway.store.reload()
        expect(snapshot.manifest.build.counts['blog-posts']).toBe(BASE_POSTS + gen)
        await new Promise((r) => setTimeout(r, 50))
      }
    } finally {
      done = true
      await Promise.all(loops)
    }
    // The test saw more than one build, so mixing would have shown.
    expect(seen.size).toBeGreaterThan(1)
    expect(answers).toBeGreaterThan(20)
    expect((await fetch(`${ctx.gateway.url}/api/health`)).status).toBe(200)
    // Four full builds under the hammering: a minute and more on a loaded machine.
  }, 180_000)
})

describe('a corrupt or tampered dist/', () => {
  const ctx = useBuiltGateway(generationZero, UNLIMITED)

  const manifestPath = () => join(ctx.project.dist, '_build', 'manifest.json')
  it.each([
    ['a manifest that is not JSON', () => writeFile(manifestPath(), '{"format": tru')],
    [
      'a manifest of another shape',
      () => writeFile(manifestPath(), JSON.stringify({ format: 'something-else', files: [] })),
    ],
    ['a missing manifest', () => rm(manifestPath())],
    [
      'a file changed after the build',
      () => writeFile(join(ctx.project.dist, 'api', 'blog-posts', 'post-0.json'), '{"tampered":true}'),
    ],
    ['a file removed after the build', () => rm(join(ctx.project.dist, 'api', 'blog-posts', 'post-1.json'))],
  ])('%s: health 503 problem, the last good build still served, recovery on rebuild', async (_, corrupt) => {
    const before = await (await fetch(`${ctx.gateway.url}/api/health`)).json()
    await corrupt()
    await expect(ctx.gateway.store.reload()).rejects.toThrow()
    const health = await fetch(`${ctx.gateway.url}/api/health`)
    const text = await health.text()
    expect(health.status).toBe(503)
    expect(problemDefect(503, health.headers.get('content-type'), text)).toBeUndefined()
    expect(health.headers.get('retry-after')).toBeTruthy()
    // The reason names the build folder as dist, never the server's path to it.
    expect(text).not.toContain(ctx.project.root)
    expect(JSON.parse(text).detail).toMatch(/\bdist\//)
    // Content keeps coming from the last good snapshot, whole.
    const item = await fetch(`${ctx.gateway.url}/api/blog-posts/post-0`)
    expect(item.status).toBe(200)
    expect((await item.json()).title).toBe('Gen 0 post 0')
    await buildSite({ root: ctx.project.root, cache: false, force: true })
    await ctx.gateway.store.reload()
    const after = await fetch(`${ctx.gateway.url}/api/health`)
    expect(after.status).toBe(200)
    expect((await after.json()).build.id).toBe(before.build.id)
  })

  it('through `npm start`: SIGHUP with a corrupt manifest keeps the process up and serving; a rebuild and SIGHUP recover', async () => {
    const child = spawn(process.execPath, commandArgs('serve'), {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        LOG_LEVEL: 'info',
        PORT: '0',
        DIST_DIR: ctx.project.dist,
        KEYS_FILE: join(ctx.project.root, 'keys.json'),
        OAUTH_SIGNING_KEY: '',
      },
    })
    let stderr = ''
    let stdout = ''
    child.stderr.on('data', (d) => (stderr += d))
    child.stdout.on('data', (d) => (stdout += d))
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    try {
      await until(() => /at (http:\/\/\S+)/.test(stderr), { what: 'the gateway to start', everyMs: 100 })
      const url = /at (http:\/\/\S+)/.exec(stderr)![1]!
      expect((await fetch(`${url}/api/health`)).status).toBe(200)

      await writeFile(manifestPath(), 'not json at all')
      child.kill('SIGHUP')
      await until(async () => (await fetch(`${url}/api/health`)).status === 503, {
        what: 'health to report the failed reload',
        everyMs: 100,
      })
      expect((await fetch(`${url}/api/blog-posts?limit=2`)).status).toBe(200)
      expect(child.exitCode).toBeNull()
      expect(stdout).toMatch(/reload failed; still serving the previous build/)

      await buildSite({ root: ctx.project.root, cache: false, force: true })
      child.kill('SIGHUP')
      await until(async () => (await fetch(`${url}/api/health`)).status === 200, {
        what: 'health to recover',
        everyMs: 100,
      })
    } finally {
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    }
  })
})

describe('a file of the served build changed on disk after it was loaded', () => {
  it('is a 503 problem (never a 500, never the new bytes), health says why, and a reload recovers', async () => {
    const project = await generationZero()
    await buildSite({ root: project.root, cache: false })
    // No cache: every answer is read from dist/ when asked for, so the change is seen at once.
    const store = new ArtifactStore(project.dist, { cacheMb: 0 })
    await store.reload()
    const gateway = await startGateway(project.dist, { platform: { store } })
    try {
      expect((await fetch(`${gateway.url}/api/blog-posts/post-0`)).status).toBe(200)
      // Files not read since the load (a file already answered may still be in memory, as verified bytes of this build).
      await writeFile(join(project.dist, 'api', 'blog-posts', 'post-1.json'), '{"tampered":true}')
      await rm(join(project.dist, 'api', 'blog-posts', 'post-2.json'))
      for (const slug of ['post-1', 'post-2']) {
        const item = await fetch(`${gateway.url}/api/blog-posts/${slug}`)
        const text = await item.text()
        expect(item.status, text).toBe(503)
        expect(problemDefect(503, item.headers.get('content-type'), text)).toBeUndefined()
        expect(text).not.toContain('tampered')
      }
      const health = await fetch(`${gateway.url}/api/health`)
      expect(health.status).toBe(503)
      expect(((await health.json()) as { detail: string }).detail).toMatch(/no longer matches the build being served/)
      await buildSite({ root: project.root, cache: false, force: true })
      await store.reload()
      expect((await fetch(`${gateway.url}/api/blog-posts/post-1`)).status).toBe(200)
      expect((await fetch(`${gateway.url}/api/health`)).status).toBe(200)
    } finally {
      await gateway.close()
      await project.remove()
    }
  })

  it("checked on read (the Netlify Function's deploy): a file changed before it was ever read is still a 503, never its bytes", async () => {
    const project = await generationZero()
    await buildSite({ root: project.root, cache: false })
    await writeFile(join(project.dist, 'api', 'blog-posts', 'post-1.json'), '{"tampered":true}')
    // Checked at load, the changed file fails the load; checked on read, the load reads no file.
    await expect(new ArtifactStore(project.dist, { cacheMb: 0 }).reload()).rejects.toThrow(
      /does not match the manifest/,
    )
    const store = new ArtifactStore(project.dist, { cacheMb: 0, checkFiles: 'on-read' })
    await store.reload()
    const gateway = await startGateway(project.dist, { platform: { store } })
    try {
      expect((await fetch(`${gateway.url}/api/health`)).status).toBe(200)
      expect((await fetch(`${gateway.url}/api/blog-posts/post-0`)).status).toBe(200)
      const item = await fetch(`${gateway.url}/api/blog-posts/post-1`)
      const text = await item.text()
      expect(item.status, text).toBe(503)
      expect(problemDefect(503, item.headers.get('content-type'), text)).toBeUndefined()
      expect(text).not.toContain('tampered')
      const health = await fetch(`${gateway.url}/api/health`)
      expect(health.status).toBe(503)
      expect(((await health.json()) as { detail: string }).detail).toMatch(/no longer matches the build being served/)
    } finally {
      await gateway.close()
      await project.remove()
    }
  })
})
