/**
 * The render cache keeps what a build used, in a file of its own V8's
 * serialisation: reopened, it gives the same bodies back; an unreadable or
 * foreign file is an empty cache, never an error.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { RenderCache } from '../../../build/pipeline/cache.ts'
import { renderBody } from '../../../build/pipeline/markdown.ts'

let root: string | undefined
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true })
})

const bodies = [
  '# Title\n\nSome *prose* with “quotes” — and ünïcödé.\n',
  'Another body, with a [link](https://example.com).\n',
]

describe('render cache', () => {
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
