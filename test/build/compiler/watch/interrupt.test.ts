/**
 * The full pass's worker stops inside a long emitter once the dev server
 * cancels the pass (core/interrupt.ts): the search index and the change
 * feed's replay reach a checkpoint, and the compiler's emit ends as an abort
 * between emitters does, leaving nothing half-made for the next pass.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Compiler } from '../../../../build/compiler/compiler.ts'
import { armInterrupt, checkpoint, Interrupted } from '../../../../build/core/interrupt.ts'
import { classify } from '../../../../build/core/sources.ts'
import { serializeSearchIndex } from '../../../../build/emit/search-index.ts'
import { SEARCH_INDEX_FILE } from '../../../../contract/search.ts'
import { copyOfFixtureContent, type TempProject } from '../../../helpers/project.ts'
import { COLLECTION_NAMES } from '../../../helpers/site.ts'

const POST = 'content/blog-posts/bigquery-support-ga.md'

let project: TempProject | undefined
afterEach(async () => {
  armInterrupt(undefined)
  await project?.remove()
})

/** A check that says "stop" from its `after`-th call on, and counts the calls. */
function stopAfter(after: number): { check: () => boolean; calls: () => number } {
  let calls = 0
  return { check: () => ++calls >= after, calls: () => calls }
}

describe('interrupting the full pass', () => {
  it('a checkpoint throws only while armed, and only once its check says so', () => {
    expect(() => checkpoint()).not.toThrow()
    const stop = stopAfter(2)
    armInterrupt(stop.check)
    expect(() => checkpoint()).not.toThrow()
    expect(() => checkpoint()).toThrow(Interrupted)
    armInterrupt(undefined)
    expect(() => checkpoint()).not.toThrow()
  })

  it('stops the search index inside its loop over documents', () => {
    const documents = Array.from({ length: 50 }, (_, i) => ({
      id: `blog-posts/p${i}`,
      collection: 'blog-posts' as const,
      slug: `p${i}`,
      title: `Post ${i}`,
      summary: '',
      tags: '',
      details: '',
      text: 'Words to index, and more words.',
    }))
    const stop = stopAfter(10)
    armInterrupt(stop.check)
    expect(() => serializeSearchIndex(documents, COLLECTION_NAMES)).toThrow(Interrupted)
    // It stopped at the tenth document, not after the fiftieth.
    expect(stop.calls()).toBe(10)
  })

  it('ends an interrupted full emit as an abort, and the next pass makes a full build’s bytes', async () => {
    project = await copyOfFixtureContent()
    const compiler = await Compiler.open({ root: project.root, offThread: false, cache: false })
    await compiler.emit('full')
    const file = join(project.root, POST)
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^title: .*$/m, 'title: Interrupted on the way'))
    await compiler.update([classify(project.root, file)!])
    await compiler.emit('edit')

    const stop = stopAfter(3)
    armInterrupt(stop.check)
    await expect(compiler.emit('full')).resolves.toBeUndefined()
    expect(stop.calls()).toBe(3)
    armInterrupt(undefined)

    const resumed = await compiler.emit('full')
    // A fresh compiler as `npm run build` opens one, with the build caches (the compiler above has none).
    const fresh = await (await Compiler.open({ root: project.root, offThread: false })).emit('full')
    expect(resumed?.complete).toBe(true)
    expect(resumed?.files.get(SEARCH_INDEX_FILE)?.etag).toBe(fresh?.files.get(SEARCH_INDEX_FILE)?.etag)
    const differing = [...fresh!.files.keys()].filter(
      (path) => resumed!.files.get(path)?.etag !== fresh!.files.get(path)!.etag,
    )
    expect(differing).toEqual([])
    expect(resumed!.files.size).toBe(fresh!.files.size)
  })
})
