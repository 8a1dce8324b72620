/**
 * Redirects are per locale where slugs are: a translation whose own `slug:`
 * changes in a commit answers its old slug 301 in its locale, the default
 * locale's item of the same old slug is untouched, and /api/redirects names
 * the translation's locale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import type { RedirectsEnvelope } from '../../../contract/redirects.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { commitAll, initAndCommit } from '../../helpers/git.ts'
import { createProject, SITE_YAML, validPost, type TempProject } from '../../helpers/project.ts'

const T1 = 1_769_904_000 // 2026-02-01T00:00:00Z, after the posts' published_at
const T2 = T1 + 86_400

const german = (slug: string) =>
  validPost('Auf Deutsch', `slug: ${slug}\n`).replace('First paragraph of the post.', 'Der erste Absatz.')

let project: TempProject
let gateway: TestGateway

describe('redirects of a translation', () => {
  beforeAll(async () => {
    project = await createProject({
      'content/site.yaml': `${SITE_YAML.replace('url: https://www.fixture.example', 'url: https://www.fixture.example\nlanguage: en\nlocales: [en, de]')}`,
      'content/blog-posts/alpha.md': validPost('Alpha'),
      'content/blog-posts/alpha.de.md': german('alpha-alt'),
    })
    await initAndCommit(project.root, T1)
    await project.write('content/blog-posts/alpha.de.md', german('alpha-neu'))
    await commitAll(project.root, 'rename the German slug', T2)
    const { warnings } = await buildSite({ root: project.root, cache: false })
    expect(warnings).toEqual([])
    gateway = await startGateway(project.dist)
  }, 120_000)
  afterAll(async () => {
    await gateway?.close()
    await project?.remove()
  })

  it("answers the translation's old slug 301 in its locale, to its new slug", async () => {
    const old = await fetch(`${gateway.url}/api/blog-posts/alpha-alt?locale=de`, { redirect: 'manual' })
    expect(old.status).toBe(301)
    const location = old.headers.get('location')!
    expect(location).toContain('/api/blog-posts/alpha-neu')
    expect(location).toContain('locale=de')
    const moved = await fetch(new URL(location, gateway.url))
    expect(moved.status).toBe(200)
    expect(((await moved.json()) as { slug: string; locale: string }).slug).toBe('alpha-neu')
  })

  it("leaves the default locale's item alone, and lists the redirect with its locale", async () => {
    expect((await fetch(`${gateway.url}/api/blog-posts/alpha`, { redirect: 'manual' })).status).toBe(200)
    const listed = (await (await fetch(`${gateway.url}/api/redirects`)).json()) as RedirectsEnvelope
    const german = listed.data.filter((r) => r.locale === 'de')
    expect(german).toHaveLength(1)
    expect(german[0]).toMatchObject({ status: 301 })
    expect(german[0]!.from).toContain('alpha-alt')
    expect(german[0]!.to).toContain('alpha-neu')
  })
})
