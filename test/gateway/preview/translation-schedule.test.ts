/**
 * Translations in `npm run dev`'s preview on a multilingual site: one dated
 * before its item's release is marked scheduled at the item's time, naming the
 * item it waits for; one whose item expired is marked expired with it; one of
 * a draft item is marked a draft, naming the item. The API leaves all three
 * out of the German list. As of the tests' BUILD_TIME (vitest.config.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDev, type DevServer } from '../../../gateway/dev-server.ts'
import { createProject, SITE_YAML, type TempProject } from '../../helpers/project.ts'

const RELEASE = '2029-03-04T08:00:00Z'
const EXPIRY = '2027-06-30T22:00:00Z'
const post = (title: string, publishedAt: string, extra = '') =>
  `---\ntitle: ${title}\npublished_at: ${publishedAt}\nauthors:\n  - name: A\n${extra}---\nBody of ${title}.\n`

let project: TempProject
let dev: DevServer

beforeAll(async () => {
  project = await createProject({
    'content/site.yaml': `${SITE_YAML}language: en\nlocales: [en, de]\n`,
    'content/blog-posts/hello.md': post('Hello', '2026-01-05'),
    'content/blog-posts/hello.de.md': post('Hallo', '2026-01-05', 'slug: hallo\n'),
    'content/blog-posts/launch.md': post('Launch', RELEASE),
    'content/blog-posts/launch.de.md': post('Start', '2026-01-05', 'slug: start\n'),
    'content/blog-posts/offer.md': post('Offer', '2026-01-05', `expires_at: ${EXPIRY}\n`),
    'content/blog-posts/offer.de.md': post('Angebot', '2026-01-05', 'slug: angebot\n'),
    'content/blog-posts/secret.md': post('Secret', '2026-01-05', 'draft: true\n'),
    'content/blog-posts/secret.de.md': post('Geheim', '2026-01-05', 'slug: geheim\n'),
  })
  dev = await startDev({ root: project.root, port: 0, distDir: false, print: () => {} })
}, 60_000)

afterAll(async () => {
  await dev?.close()
  await project?.remove()
})

describe('translations in the preview of npm run dev', () => {
  it('marks each with the time it is held to and the item it waits for, while the API leaves them out', async () => {
    const list = (await (await fetch(`${dev.url}/api/blog-posts?locale=de`)).json()) as { data: { slug: string }[] }
    expect(list.data.map((r) => r.slug)).toEqual(['hallo'])
    const index = await (await fetch(`${dev.url}/preview/`)).text()
    const row = (slug: string) => new RegExp(`<li><a href="/preview/blog-posts/${slug}">[^]*?</li>`).exec(index)?.[0]
    expect(row('start')).toContain(
      `<span class="scheduled">scheduled: publishes <time datetime="${RELEASE}">${RELEASE}</time> with its item content/blog-posts/launch.md</span>`,
    )
    expect(row('angebot')).toContain(
      `<span class="expired">expired <time datetime="${EXPIRY}">${EXPIRY}</time> with its item content/blog-posts/offer.md</span>`,
    )
    expect(row('geheim')).toContain(
      '<span class="draft">draft: its item content/blog-posts/secret.md is a draft</span>',
    )
    expect(row('hallo')).not.toContain('<span')
  })
})
