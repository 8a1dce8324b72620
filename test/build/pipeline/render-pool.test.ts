/** The render pool renders on worker threads exactly what the main thread would. */
import { readFileSync } from 'node:fs'
import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { generateCorpus } from '../../../bench/corpus/generate.ts'
import { RenderCache } from '../../../build/pipeline/cache.ts'
import { renderBody } from '../../../build/pipeline/markdown.ts'
import { prerenderBodies, RenderPool } from '../../../build/pipeline/render-pool.ts'
import { splitFrontmatter } from '../../../build/pipeline/frontmatter.ts'

describe('render pool', () => {
  let root: string | undefined
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('fills the cache from worker threads with the same bodies as the main thread', { timeout: 120_000 }, async () => {
    const corpus = await generateCorpus({ items: 420, seed: 7 })
    root = corpus.root
    const dir = join(root, 'content', 'blog-posts')
    const bodies = await Promise.all(
      (await readdir(dir)).map(async (n) => splitFrontmatter(await readFile(join(dir, n), 'utf8')).content),
    )
    bodies.push('An image without alt text: ![](https://i.example/x.png)\n')
    expect(bodies.length).toBeGreaterThanOrEqual(200)
    const cache = await RenderCache.open(undefined)
    await prerenderBodies(bodies, cache, 2, 1)
    for (const body of bodies.slice(0, -1)) {
      const key = RenderCache.key(body)
      expect(cache.has(key)).toBe(true)
      expect(cache.get(key)).toEqual(renderBody(body).rendered)
    }
    // Bodies with author errors are left for the main thread, which reports them with positions.
    expect(cache.has(RenderCache.key(bodies.at(-1)!))).toBe(false)
  })

  it('renders bodies fed while the files are parsed, each once, the same as the main thread', {
    timeout: 120_000,
  }, async () => {
    const dir = join(root!, 'content', 'blog-posts')
    const names = await readdir(dir)
    const cache = await RenderCache.open(undefined)
    const pool = RenderPool.start(1, cache)!
    // Every file twice: a body already queued is not rendered again.
    const parsed = await pool.feedAsParsed(
      [...names, ...names],
      (name) => ({ name, body: splitFrontmatter(readFileSync(join(dir, name), 'utf8')).content }),
      (p) => p.body,
    )
    await pool.finish()
    expect(parsed.map((p) => p.name)).toEqual([...names, ...names])
    expect(cache.size).toBe(new Set(parsed.map((p) => p.body)).size)
    for (const { body } of parsed) expect(cache.get(RenderCache.key(body))).toEqual(renderBody(body).rendered)
  })
})
