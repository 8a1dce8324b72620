/**
 * The render cache: a build reuses a body rendered before and never depends
 * on it; the file, in its own V8's serialisation, gives back what it was
 * given, keeps only what the run used, and an unreadable or foreign file is
 * an empty cache, never an error.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { itemFile } from '../../../contract/paths.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { RenderCache } from '../../../build/pipeline/cache.ts'
import { renderBody } from '../../../build/pipeline/markdown.ts'
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
    const cache = deserialize(await readFile(cacheFile)) as Map<string, { html: string }>
    const [entry] = cache.values()
    entry!.html = '<p>from the cache</p>'
    await writeFile(cacheFile, serialize(cache))
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

let root: string | undefined
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true })
})

const bodies = [
  '# Title\n\nSome *prose* with “quotes” — and ünïcödé.\n',
  'Another body, with a [link](https://example.com).\n',
]

describe('render cache file', () => {
  it('gives back after reopening what it was given, and keeps only what the run used', async () => {
    root = await mkdtemp(join(tmpdir(), 'render-cache-'))
    const first = await RenderCache.open(root)
    for (const body of bodies) first.set(RenderCache.key(body), renderBody(body).rendered!)
    await first.save()
    const second = await RenderCache.open(root)
    expect(second.size).toBe(2)
    for (const body of bodies) expect(second.get(RenderCache.key(body))).toEqual(renderBody(body).rendered)
    // Both used: the save leaves the file as it is. A run that uses only the first drops the other.
    await second.save()
    const third = await RenderCache.open(root)
    expect(third.size).toBe(2)
    third.get(RenderCache.key(bodies[0]!))
    await third.save()
    expect((await RenderCache.open(root)).size).toBe(1)
  })

  it('starts empty from a file it cannot read', async () => {
    root = await mkdtemp(join(tmpdir(), 'render-cache-'))
    const cache = await RenderCache.open(root)
    cache.set(RenderCache.key(bodies[0]!), renderBody(bodies[0]!).rendered!)
    await cache.save()
    const [file] = (await readdir(join(root, '.cache'))).filter((n) => n.startsWith('markdown-'))
    for (const junk of ['{"not":"v8"}', '', '\u00ff\u000f garbage']) {
      await writeFile(join(root, '.cache', file!), junk)
      expect((await RenderCache.open(root)).size).toBe(0)
    }
  })
})
