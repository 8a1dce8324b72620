/**
 * The compiler builds a large search index on a worker thread; it must be the
 * same bytes as the emitter on the main thread (the repository's content is
 * below the worker's threshold, so this is where the worker path is checked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuiltContent } from '../../../build/emit/types.ts'
import {
  emitSearchIndex,
  searchDocuments,
  searchIndexJobs,
  serializeSearchIndex,
} from '../../../build/emit/search-index.ts'
import { SEARCH_INDEX_FILE } from '../../../contract/search.ts'
import { Compiler } from '../../../build/compiler/compiler.ts'
import { searchIndexOffThread } from '../../../build/emit/search-index-thread.ts'
import { copyOfFixtureContent, copyOfLocaleFixture, type TempProject } from '../../helpers/project.ts'
import { COLLECTION_NAMES } from '../../helpers/site.ts'

describe('search index on a worker thread', () => {
  let project: TempProject
  let content: BuiltContent

  beforeAll(async () => {
    project = await copyOfFixtureContent()
    const state = (await Compiler.open({ root: project.root })).current()
    if (!state.ok) throw state.errors
    content = state.content
  })
  afterAll(() => project?.remove())

  it('writes the same index file as the build', async () => {
    const documents = searchDocuments(content)
    expect(documents.length).toBeGreaterThan(10)
    const file = (await searchIndexOffThread([{ documents, names: COLLECTION_NAMES }]).result)[0]!
    const built = emitSearchIndex.emit(content)[SEARCH_INDEX_FILE] as { body: Buffer; etag: string }
    expect(file.etag).toBe(built.etag)
    expect(file.body.equals(built.body)).toBe(true)
  })

  it("shares a multilingual site's indexes out between workers and gives each in its job's place", async () => {
    const site = await copyOfLocaleFixture()
    try {
      const state = (await Compiler.open({ root: site.root })).current()
      if (!state.ok) throw state.errors
      const jobs = searchIndexJobs(state.content)
      expect(jobs.map((j) => j.stem)).toEqual(['en', 'de', 'fr'])
      const inThread = jobs.map((job) => serializeSearchIndex(job.documents, job.names, job.stem))
      // Three indexes on two workers, and on three: the same bytes in the jobs' order either way.
      for (const threads of [2, 3]) {
        const files = await searchIndexOffThread(jobs, threads).result
        expect(files.map((f, i) => f.body.equals(inThread[i]!))).toEqual([true, true, true])
      }
      expect(new Set(inThread.map((b) => b.toString('base64'))).size).toBe(3)
    } finally {
      await site.remove()
    }
  })

  it('stops when cancelled, without an answer', async () => {
    const task = searchIndexOffThread([{ documents: searchDocuments(content), names: COLLECTION_NAMES }])
    task.cancel()
    await expect(task.result).rejects.toThrow(/exited/)
  })
})
