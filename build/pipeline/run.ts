/**
 * The build: compile every file, assemble the published content, emit dist/.
 * `checkContent` stops after validation; `buildSite` writes dist/ atomically.
 */
import { join } from 'node:path'
import { COLLECTION_NAMES, type CollectionName } from '../contract/collections.ts'
import { ContentErrors, sortErrors, type ContentError } from '../errors.ts'
import { emitAll } from '../emit/index.ts'
import type { Manifest } from '../contract/manifest.ts'
import type { BuiltContent } from '../emit/types.ts'
import { writeDistAtomically } from '../emit/write.ts'
import { loadSiteConfig, type SiteConfig } from '../site.ts'
import { RenderCache } from './cache.ts'
import { compileFile, parseFile, type CompiledFile } from './compile.ts'
import { compareRecords, normaliseDate, toSummary } from './derive.ts'
import { type FullRecord } from '../contract/records.ts'
import { readSources, type SourceFile } from './load.ts'

export { hashInputs, readManifest } from './inputs.ts'
import { hashInputs, readManifest } from './inputs.ts'
import { prerenderBodies } from './render-pool.ts'
import { checkDuplicateSlugs } from './validate.ts'

export interface BuildOptions {
  /** Project root holding content/; dist/ and .cache/ are written here. */
  root: string
  /** Output folder; defaults to `<root>/dist`. */
  distDir?: string
  /** Use the render cache in `<root>/.cache` (default true). */
  cache?: boolean
  /** Rebuild even when the inputs are unchanged. */
  force?: boolean
}

export interface BuildReport {
  manifest: Manifest
  files: number
  /** True when dist/ was already up to date and nothing was written. */
  upToDate: boolean
}

/** Put compiled files together: duplicate slugs, drafts out, sort newest first. */
export function assemble(compiled: CompiledFile[], site: SiteConfig): BuiltContent {
  const errors: ContentError[] = compiled.flatMap((c) => c.errors)
  checkDuplicateSlugs(compiled.filter((c) => c.loaded.data !== undefined).map((c) => ({ file: c.loaded, slug: c.slug })), errors)
  if (errors.length) throw new ContentErrors(sortErrors(errors))
  const collections = {} as Record<CollectionName, FullRecord[]>
  const summaries = {} as BuiltContent['summaries']
  let builtAt = '1970-01-01T00:00:00Z'
  for (const name of COLLECTION_NAMES) {
    const records = compiled.filter((c) => c.collection === name && !c.draft).map((c) => c.record!)
    records.sort(compareRecords(name))
    collections[name] = records
    summaries[name] = records.map(toSummary)
    for (const r of records) if (r.updated_at > builtAt) builtAt = normaliseDate(r.updated_at)
  }
  return { site, collections, summaries, builtAt }
}

/** Validate all content without writing anything; throws ContentErrors. */
export async function checkContent(root: string): Promise<{ files: number }> {
  const site = await loadSiteConfig(root)
  const sources = await readSources(root)
  const cache = await RenderCache.open(undefined)
  assemble(await compileAll(sources, site, cache), site)
  return { files: sources.length }
}

export async function buildSite(options: BuildOptions): Promise<BuildReport> {
  const { root } = options
  const distDir = options.distDir ?? join(root, 'dist')
  const site = await loadSiteConfig(root)
  const sources = await readSources(root)
  const inputHash = await hashInputs(root, sources)
  if (!options.force) {
    const current = await readManifest(distDir)
    if (current?.input_hash === inputHash) return { manifest: current, files: Object.keys(current.files).length + 1, upToDate: true }
  }
  const cache = await RenderCache.open(options.cache === false ? undefined : root)
  const compiled = await compileAll(sources, site, cache)
  await cache.save()
  const content = assemble(compiled, site)
  const { files, manifest } = emitAll(content, inputHash)
  await writeDistAtomically(distDir, files)
  return { manifest, files: Object.keys(files).length, upToDate: false }
}

/** Compile every file, rendering the bodies the cache lacks on all cores first. */
async function compileAll(sources: SourceFile[], site: SiteConfig, cache: RenderCache): Promise<CompiledFile[]> {
  const parsed = sources.map(parseFile)
  await prerenderBodies(parsed.map((p) => p.loaded.body), cache)
  return sources.map((s, i) => compileFile(s, site, cache, parsed[i]))
}
