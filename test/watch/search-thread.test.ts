/**
 * The watch mode builds a large search index on a worker thread; it must be
 * the same bytes as the build's emitter (the e2e test's content is below the
 * worker's threshold, so this is where the worker path is checked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuiltContent } from '../../build/emit/types.ts'
import { emitSearchIndex, searchDocuments } from '../../build/emit/search-index.ts'
import { SEARCH_INDEX_FILE } from '../../build/contract/search.ts'
import { ContentState } from '../../build/watch/content-state.ts'
import { searchIndexOffThread } from '../../build/watch/search-thread.ts'
import { copyOfRepoContent, type TempProject } from '../helpers/project.ts'

describe('search index on a worker thread', () => {
  let project: TempProject
  let content: BuiltContent

  beforeAll(async () => {
    project = await copyOfRepoContent()
    const outcome = (await ContentState.open(project.root)).assemble()
    if (!outcome.ok) throw outcome.errors
    content = outcome.content
  })
  afterAll(() => project?.remove())

  it('writes the same index file as the build', async () => {
    const documents = searchDocuments(content)
    expect(documents.length).toBeGreaterThan(10)
    const text = await searchIndexOffThread(documents).result
    expect(text).toBe(emitSearchIndex(content, {})[SEARCH_INDEX_FILE])
  })

  it('stops when cancelled, without an answer', async () => {
    const task = searchIndexOffThread(searchDocuments(content))
    task.cancel()
    await expect(task.result).rejects.toThrow(/exited/)
  })
})
