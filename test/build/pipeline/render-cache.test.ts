import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { itemFile } from '../../../contract/paths.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'

describe('render cache', () => {
  let project: TempProject
  let cacheFile: string
  const html = async () =>
    JSON.parse(await readFile(join(project.dist, itemFile('blog-posts', 'cached')), 'utf8')).body.html as string

  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/cached.md': validPost('Cached') })
    await buildSite({ root: project.root })
    const names = await readdir(join(project.root, '.cache'))
    cacheFile = join(project.root, '.cache', names.find((n) => n.startsWith('markdown-'))!)
  })
  afterAll(() => project.remove())

  it('reuses the rendered body of an unchanged file, even when only the frontmatter changed', async () => {
    // Mark the cached rendering; if the next build re-rendered the body, the mark would vanish.
    const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as Record<string, { html: string }>
    const [key] = Object.keys(cache)
    cache[key!]!.html = '<p>from the cache</p>'
    await writeFile(cacheFile, JSON.stringify(cache))
    await project.write('content/blog-posts/cached.md', validPost('Cached, retitled'))
    await buildSite({ root: project.root })
    expect(await html()).toBe('<p>from the cache</p>')
  })

  it('never depends on the cache for correctness: without it the body is rendered afresh', async () => {
    await buildSite({ root: project.root, cache: false, force: true })
    expect(await html()).toContain('<table>')
  })

  it('says dist/ is up to date when nothing changed, and rebuilds after an edit', async () => {
    expect((await buildSite({ root: project.root })).upToDate).toBe(true)
    await project.write('content/blog-posts/cached.md', validPost('Edited again'))
    const report = await buildSite({ root: project.root })
    expect(report.upToDate).toBe(false)
  })
})
