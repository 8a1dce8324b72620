/**
 * The watch mode's warm-up: after its first build (which finds every body in
 * the cache and runs none of the edit's code) the dev server compiles files
 * spread across the content through the edit's own path, rendering their
 * bodies into a scratch cache, so the first edits do not run it cold. It
 * changes nothing: not the compiled content, not the render cache.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Compiler } from '../../../../build/compiler/compiler.ts'
import { watchContent } from '../../../../build/compiler/watch.ts'
import { RenderCache } from '../../../../build/pipeline/cache.ts'
import { copyOfFixtureContent, type TempProject } from '../../../helpers/project.ts'

describe('the watch mode warm-up', () => {
  let project: TempProject
  beforeAll(async () => {
    project = await copyOfFixtureContent()
  })
  afterAll(() => project?.remove())

  it('renders bodies across the content into a scratch cache, changing nothing', async () => {
    const compiler = await Compiler.open({ root: project.root, cache: false, offThread: false })
    const before = compiler.current()
    if (!before.ok) throw before.errors
    const cache = (compiler as unknown as { cache: RenderCache }).cache
    const cached = cache.size
    const set = vi.spyOn(RenderCache.prototype, 'set')
    try {
      await compiler.warmUp(60_000)
      // Every file of the fixture (fewer than 64): each body rendered again, none into the compiler's cache.
      expect(set.mock.calls.length).toBeGreaterThanOrEqual(compiler.fileCount() - 5)
      expect(set.mock.contexts.some((context) => context === cache)).toBe(false)
      expect(cache.size).toBe(cached)
      const after = compiler.current()
      expect(after.ok && after.content).toBe(before.content)
      // No time left: nothing compiled.
      set.mockClear()
      await compiler.warmUp(0)
      expect(set).not.toHaveBeenCalled()
    } finally {
      set.mockRestore()
    }
  })

  it('runs once the watch mode has built, before it watches', async () => {
    const compiler = await Compiler.open({ root: project.root, cache: false, offThread: false })
    const warmUp = vi.spyOn(compiler, 'warmUp')
    const watcher = await watchContent(compiler, {
      print: () => undefined,
      onOutput: () => undefined,
      servingId: () => undefined,
      offThread: false,
    })
    try {
      expect(warmUp).toHaveBeenCalledTimes(1)
      await expect(warmUp.mock.results[0]!.value).resolves.toBeUndefined()
    } finally {
      await watcher.close()
    }
  })
})
