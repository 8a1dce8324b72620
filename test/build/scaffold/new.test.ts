/** `npm run new`: the scaffolded file passes validation and publishes once the draft flag goes. */
import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { COLLECTION_NAMES } from '../../../contract/collections.ts'
import { buildSite, checkContent } from '../../../build/compiler/build.ts'
import { slugify } from '../../../build/core/slug.ts'
import { createProject, REPO_ROOT, type TempProject } from '../../helpers/project.ts'

const run = promisify(execFile)
const TSX = join(REPO_ROOT, 'node_modules/.bin/tsx')

async function scaffold(root: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(TSX, [join(REPO_ROOT, 'build/scaffold.ts'), ...args, '--root', root])
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

describe('npm run new', () => {
  // Each test has its own project, so none depends on another having run.
  let project: TempProject
  beforeEach(async () => {
    project = await createProject()
  })
  afterEach(() => project.remove())

  it('scaffolds a valid draft of every collection and prints its path', async () => {
    for (const collection of COLLECTION_NAMES) {
      const result = await scaffold(project.root, collection, `Zoë's "first" ${collection}: a test`)
      expect(result.code).toBe(0)
      const path = `content/${collection}/zoe-s-first-${collection}-a-test.md`
      expect(result.stdout.trim()).toBe(path)
      const text = await readFile(join(project.root, path), 'utf8')
      expect(text).toMatch(/^draft: true$/m)
      expect(text).toContain(`title: "Zoë's \\"first\\" ${collection}: a test"`)
    }
    await expect(checkContent(project.root)).resolves.toEqual({ files: 4 })
  })

  it('publishes the scaffolded file once `draft: true` is removed', async () => {
    expect((await scaffold(project.root, 'webinars', `Zoë's "first" webinars: a test`)).code).toBe(0)
    const path = join(project.root, 'content/webinars/zoe-s-first-webinars-a-test.md')
    await writeFile(path, (await readFile(path, 'utf8')).replace('draft: true\n', ''))
    const report = await buildSite({ root: project.root, cache: false })
    if (report.upToDate) throw new Error('a first build cannot be up to date')
    expect(report.manifest.build.counts.webinars).toBe(1)
    expect(report.manifest.collections.webinars[0]).toMatchObject({
      slug: 'zoe-s-first-webinars-a-test',
      title: `Zoë's "first" webinars: a test`,
    })
  })

  it('refuses to overwrite an existing file', async () => {
    await project.write('content/blog-posts/zoe-s-first-blog-posts-a-test.md', 'mine\n')
    const path = join(project.root, 'content/blog-posts/zoe-s-first-blog-posts-a-test.md')
    const result = await scaffold(project.root, 'blog-posts', `Zoë's "first" blog-posts: a test`)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      'content/blog-posts/zoe-s-first-blog-posts-a-test.md already exists; nothing was written',
    )
    expect(await readFile(path, 'utf8')).toBe('mine\n')
  })

  it('rejects an unknown collection and a title without a slug, with usage', async () => {
    const unknown = await scaffold(project.root, 'podcasts', 'Episode one')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain(
      'unknown collection "podcasts"; use one of blog-posts, case-studies, webinars, events',
    )
    const noSlug = await scaffold(project.root, 'events', '🎉🎉')
    expect(noSlug.code).toBe(2)
    expect(noSlug.stderr).toContain('pass one with --slug')
    expect((await scaffold(project.root, 'events', '🎉🎉', '--slug', 'party')).stdout.trim()).toBe(
      'content/events/party.md',
    )
  })

  it('points the new file to related items with --related, and refuses a malformed reference', async () => {
    expect((await scaffold(project.root, 'webinars', 'A webinar')).code).toBe(0)
    const result = await scaffold(project.root, 'blog-posts', 'Follow-up post', '--related', 'webinars/a-webinar')
    expect(result.code).toBe(0)
    const text = await readFile(join(project.root, 'content/blog-posts/follow-up-post.md'), 'utf8')
    expect(text).toContain('related:\n  - webinars/a-webinar\n')
    // Both are drafts, and a draft may point to a draft: the reference resolves.
    await expect(checkContent(project.root)).resolves.toEqual({ files: 2 })
    const bad = await scaffold(project.root, 'blog-posts', 'Another post', '--related', 'Blog Posts/x')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--related "Blog Posts/x" must name an item as collection/slug')
  })

  it('makes slugs of letters, digits and single hyphens', () => {
    expect(slugify('  Crème brûlée -- at 10:00!  ')).toBe('creme-brulee-at-10-00')
  })
})
