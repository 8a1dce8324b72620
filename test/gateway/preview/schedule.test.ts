/**
 * Scheduled items in `npm run dev`: the preview lists them with their release
 * time while the API leaves them out, and the dev server publishes them at
 * that time on its own, as `npm start` does. Built as of the real clock (no
 * BUILD_TIME): the test waits for the release.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDev, type DevServer } from '../../../gateway/dev-server.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'
import { until } from '../../helpers/until.ts'

const second = (ms: number) => new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')
const RELEASE = second(Date.now() + 30_000)

let project: TempProject
let dev: DevServer
const buildTime = process.env.BUILD_TIME

beforeAll(async () => {
  // This file's compiler runs on the real clock.
  process.env.BUILD_TIME = ''
  project = await createProject({
    'content/blog-posts/hello.md': validPost('Hello'),
    'content/blog-posts/launch.md': validPost('Launch on time').replace(
      'published_at: 2026-01-05',
      `published_at: ${RELEASE}`,
    ),
    'content/blog-posts/old-offer.md': validPost('Old offer', 'expires_at: 2026-02-01T00:00:00Z\n'),
  })
  dev = await startDev({ root: project.root, port: 0, distDir: false, print: () => {} })
}, 60_000)

afterAll(async () => {
  await dev?.close()
  await project?.remove()
  process.env.BUILD_TIME = buildTime
})

const slugs = async () =>
  ((await (await fetch(`${dev.url}/api/blog-posts`)).json()) as { data: { slug: string }[] }).data.map((r) => r.slug)

describe('scheduled items in npm run dev', () => {
  it('shows them in the preview with their release time, and expired ones with theirs, while the API leaves both out', async () => {
    expect(await slugs()).toEqual(['hello'])
    const index = await (await fetch(`${dev.url}/preview/`)).text()
    expect(index).toContain(
      `<span class="scheduled">scheduled: publishes <time datetime="${RELEASE}">${RELEASE}</time></span>`,
    )
    expect(index).toContain('<span class="expired">expired <time datetime="2026-02-01T00:00:00Z">')
    const page = await (await fetch(`${dev.url}/preview/blog-posts/launch`)).text()
    expect(page).toContain('<h1>Launch on time<span class="scheduled">scheduled: publishes')
  })

  it('publishes them at their time without an edit or a restart', async () => {
    // The watch loop's rescan (every few seconds) finds the release due, as it finds an edit.
    const published = await until(slugs, {
      holds: (s) => s.includes('launch'),
      what: 'the release',
      timeoutMs: 120_000,
      everyMs: 500,
    })
    expect(published).toEqual(['launch', 'hello'])
    const index = await (await fetch(`${dev.url}/preview/`)).text()
    expect(index).not.toContain('class="scheduled"')
  }, 150_000)
})
