/**
 * Compiling every source at once (a build, site.yaml changed): parse all,
 * render the bodies the cache lacks on every core, then compile each,
 * finding its body rendered.
 */
import { availableParallelism } from 'node:os'
import type { SiteConfig } from '../core/site.ts'
import type { SourceFile } from '../core/sources.ts'
import type { RenderCache } from '../pipeline/cache.ts'
import { checkParsed, parseFile, type CompiledFile, type ParsedFile } from '../pipeline/compile.ts'
import { prerenderBodies, RenderPool, renderWork, workersWorth } from '../pipeline/render-pool.ts'

/**
 * Compile `sources` of the model's collections with `compile` (one file, its images included).
 * With nothing cached (a cold build) the render workers the sources are worth start first, and
 * load while this thread parses.
 */
export async function compileSources(
  sources: readonly SourceFile[],
  site: SiteConfig,
  cache: RenderCache,
  threads: number | undefined,
  compile: (source: SourceFile, parsed: ParsedFile | undefined) => Promise<CompiledFile>,
): Promise<CompiledFile[]> {
  const cores = threads ?? availableParallelism()
  const work = cache.size === 0 ? sources.reduce((sum, s) => sum + renderWork(s.raw), 0) : 0
  const pool = work ? RenderPool.start(workersWorth(work, cores), cache) : undefined
  const parsed = pool
    ? await pool
        .feedAsParsed(
          sources,
          (s) => checkParsed(parseFile(s), site),
          (p) => p.loaded.body,
        )
        .catch(async (error: unknown) => {
          await pool.close()
          throw error
        })
    : sources.map(parseFile)
  if (pool) await pool.finish()
  else
    await prerenderBodies(
      parsed.map((p) => p.loaded.body),
      cache,
      cores,
    )
  return Promise.all(sources.map((source, i) => compile(source, parsed[i])))
}
