/**
 * The URLs a local gateway answers load from it: `npm start` (its build and
 * the gateway after it, real processes) and `npm run dev` on the embedded
 * default name their own address in the records' images, their sources and
 * the feeds, not site.yaml's production `api_url`; `npm run build` still
 * writes `api_url`, and never takes a local build for an up-to-date one.
 */
import { spawn } from 'node:child_process'
import { copyFile, mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDev } from '../../gateway/dev-server.ts'
import { readSettings } from '../../contract/settings.ts'
import { photo } from '../helpers/images.ts'
import { createProject, REPO_ROOT, SITE_YAML, type TempProject } from '../helpers/project.ts'
import { until } from '../helpers/until.ts'

const API = 'https://api.fixture.example'

const POST = `---
title: Pictured
published_at: 2026-01-05
authors:
  - name: Zoë Tester
image: { url: cover.jpg, alt: A gradient }
---
First paragraph.

![In the body](cover.jpg)
`

interface Image {
  url: string
  sources: { url: string }[]
}

/** A port no one listens on now. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as { port: number }
  await new Promise<void>((r) => server.close(() => r()))
  return port
}

/** Every URL of the item's images, and each answers 200 with an image from `origin`. */
async function expectImagesLoadFrom(origin: string, item: { image: Image; social_image: { url: string } }) {
  const urls = [item.image.url, ...item.image.sources.map((s) => s.url), item.social_image.url]
  expect(urls.length).toBeGreaterThan(3)
  for (const url of urls) {
    expect(url.startsWith(`${origin}/media/blog-posts/`), url).toBe(true)
    const res = await fetch(url)
    expect(res.status, url).toBe(200)
    expect(res.headers.get('content-type'), url).toMatch(/^image\//)
    await res.arrayBuffer()
  }
}

let project: TempProject
beforeAll(async () => {
  project = await createProject({
    'content/site.yaml': `${SITE_YAML}api_url: ${API}\n`,
    'content/blog-posts/pictured.md': POST,
  })
  await writeFile(join(project.root, 'content/blog-posts/cover.jpg'), await photo(1200, 800))
  // A project npm start runs in as in a clone (test/gateway/process.test.ts).
  await copyFile(join(REPO_ROOT, 'package.json'), join(project.root, 'package.json'))
  await symlink(join(REPO_ROOT, 'node_modules'), join(project.root, 'node_modules'))
  await mkdir(join(project.root, 'build'))
  for (const file of ['run.mjs', 'start.sh'])
    await symlink(join(REPO_ROOT, 'build', file), join(project.root, 'build', file))
}, 60_000)
afterAll(() => project?.remove())

/** `npm <args>` in the project, as a person types it there. */
function npm(args: string[], env: Record<string, string> = {}) {
  const child = spawn('npm', args, {
    cwd: project.root,
    env: { ...process.env, LOG_LEVEL: 'warn', PUBLIC_URL: '', ...env },
  })
  let output = ''
  child.stderr.on('data', (d) => (output += d))
  child.stdout.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, exited, output: () => output }
}

const dist = (path: string) => readFile(join(project.root, 'dist', path), 'utf8')

describe('URLs on a local gateway', () => {
  it("npm start names its own address, whose images load; npm run build then writes api_url's", async () => {
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const run = npm(['start'], { PORT: String(port) })
    try {
      await until(() => /✓ gateway \(pid \d+\) serving build/.test(run.output()), {
        what: `npm start's start line (so far: ${run.output()})`,
        timeoutMs: 150_000,
        everyMs: 200,
      })
      const item = await (await fetch(`${origin}/api/blog-posts/pictured`)).json()
      await expectImagesLoadFrom(origin, item)
      expect(item.body.html).toContain(`srcset="${origin}/media/blog-posts/`)
      const feed = await (await fetch(`${origin}/feeds/blog-posts.json`)).json()
      expect(feed.feed_url).toBe(`${origin}/feeds/blog-posts.json`)
    } finally {
      run.child.kill('SIGTERM')
      await run.exited
    }
    // The production build of the same content: site.yaml's api_url, built again (not "up to date").
    const build = npm(['run', 'build', '--', '--root', project.root])
    expect(await build.exited, build.output()).toBe(0)
    expect(build.output()).toMatch(/✓ built \d+ files/)
    const record = JSON.parse(await dist('api/blog-posts/pictured.json'))
    expect(record.image.url).toMatch(new RegExp(`^${API}/media/blog-posts/`))
    expect(await dist('api/blog-posts/pictured.json')).not.toContain('127.0.0.1')
    // And a second production build is up to date: the origin is part of what a build is of.
    const again = npm(['run', 'build', '--', '--root', project.root])
    expect(await again.exited).toBe(0)
    expect(again.output()).toContain('✓ dist/ is up to date')
  }, 300_000)

  it('npm run dev names its own address, whose images load', async () => {
    const port = await freePort()
    const dev = await startDev({
      root: project.root,
      settings: { ...readSettings({}, 'dev'), PORT: port },
      distDir: false,
      print: () => {},
    })
    try {
      const item = await (await fetch(`${dev.url}/api/blog-posts/pictured`)).json()
      expect(dev.url).toBe(`http://127.0.0.1:${port}`)
      await expectImagesLoadFrom(dev.url, item)
    } finally {
      await dev.close()
    }
  }, 120_000)
})
