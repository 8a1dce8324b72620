/**
 * Warming the watch mode's edit path (Compiler.warmUp): its first build
 * finds the bodies in the render cache and runs none of the per-file code,
 * so the first edits would run it cold.
 */
import { setImmediate } from 'node:timers/promises'
import type { SourceFile } from '../core/sources.ts'
import type { SiteConfig } from '../core/site.ts'
import { RenderCache } from '../pipeline/cache.ts'
import { compileFile } from '../pipeline/compile.ts'

/** Files the watch mode compiles after its first build to warm the JIT for edits. */
const WARM_UP_FILES = 64

/**
 * Run the edit's own path (parse, check, render, derive) over up to WARM_UP_FILES of the
 * content, spread across it, for at most `budgetMs`, and throw the results away. The watch
 * mode's first build finds the bodies in the cache and runs none of that code, so the first
 * edits ran it cold, before the JIT had compiled it. Pure: a scratch render
 * cache, nothing stored. One file per turn of the event loop.
 */
export async function warmUp(sources: readonly SourceFile[], site: SiteConfig, budgetMs: number): Promise<void> {
  const until = performance.now() + budgetMs
  const step = Math.max(1, Math.floor(sources.length / WARM_UP_FILES))
  const scratch = await RenderCache.open(undefined)
  for (let i = 0; i < sources.length && performance.now() < until; i += step) {
    compileFile(sources[i]!, site, scratch)
    await setImmediate()
  }
}
