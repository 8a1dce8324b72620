/**
 * The watch mode's view of content/: every file compiled once, kept in memory,
 * and recompiled one at a time as the author edits. Assembling the published
 * content from the compiled files is cheap next to compiling them.
 */
import { readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { COLLECTION_NAMES, isCollectionName, type CollectionName } from '../collections.ts'
import { ContentErrors, sortErrors, type ContentError } from '../errors.ts'
import type { BuiltContent } from '../emit/types.ts'
import { loadSiteConfig, type SiteConfig } from '../site.ts'
import { RenderCache } from '../pipeline/cache.ts'
import { compileFile, type CompiledFile } from '../pipeline/compile.ts'
import { readSource, type SourceFile } from '../pipeline/load.ts'
import { assemble } from '../pipeline/run.ts'

/** A content path (`content/<collection>/<name>.md`) or the site settings. */
export type ContentPath = { kind: 'item'; collection: CollectionName; name: string; path: string } | { kind: 'site' }

/** Classify a file path under `root`; undefined for files the build does not read. */
export function classify(root: string, file: string): ContentPath | undefined {
  const rel = relative(root, file).split(sep).join('/')
  if (rel === 'content/site.yaml') return { kind: 'site' }
  const parts = rel.split('/')
  if (parts.length !== 3 || parts[0] !== 'content' || !parts[2]!.endsWith('.md') || !isCollectionName(parts[1]!)) return undefined
  return { kind: 'item', collection: parts[1], name: parts[2]!, path: rel }
}

/** assemble()'s starting point for builtAt, when a collection has no items. */
const EPOCH = '1970-01-01T00:00:00Z'

export type Outcome = { ok: true; content: BuiltContent; changed: Set<CollectionName> } | { ok: false; errors: ContentErrors }

export class ContentState {
  private compiled = new Map<string, CompiledFile>()
  /** Each collection's last assembly: its content, or its errors. */
  private parts = new Map<CollectionName, { content?: BuiltContent; errors?: ContentError[] }>()
  private site!: SiteConfig

  private constructor(readonly root: string, private readonly cache: RenderCache) {}

  static async open(root: string): Promise<ContentState> {
    const state = new ContentState(root, await RenderCache.open(root))
    state.site = await loadSiteConfig(root)
    for (const collection of COLLECTION_NAMES) {
      const names = await readdir(join(root, 'content', collection)).catch(() => [] as string[])
      for (const name of names.filter((n) => n.endsWith('.md')).sort()) await state.compile(collection, name)
    }
    await state.cache.save()
    return state
  }

  /** Apply changed or removed files; `site` re-reads site.yaml and recompiles everything. */
  async apply(paths: ContentPath[]): Promise<Outcome> {
    const changed = new Set<CollectionName>()
    if (paths.some((p) => p.kind === 'site')) {
      this.site = await loadSiteConfig(this.root)
      this.parts.clear()
      const files = [...this.compiled.values()].map((c) => c.source)
      for (const source of files) this.compiled.set(source.path, compileFile(source, this.site, this.cache))
      COLLECTION_NAMES.forEach((c) => changed.add(c))
    }
    for (const p of paths) {
      if (p.kind !== 'item') continue
      changed.add(p.collection)
      const previous = this.compiled.get(p.path)
      if (previous) changed.add(previous.collection)
      const found = await this.compile(p.collection, p.name)
      if (!found) this.compiled.delete(p.path)
    }
    return this.assemble(changed)
  }

  /**
   * Assemble the published content. Each collection is assembled on its own
   * (slugs are unique per collection) and kept until one of its files
   * changes, so an edit costs the size of its collection, not of all content.
   */
  assemble(changed: Set<CollectionName> = new Set(COLLECTION_NAMES)): Outcome {
    for (const collection of changed) {
      const files = [...this.compiled.values()].filter((c) => c.collection === collection)
      try {
        const content = assemble(files, this.site)
        this.parts.set(collection, { content })
      } catch (error) {
        if (!(error instanceof ContentErrors)) throw error
        this.parts.set(collection, { errors: error.errors })
      }
    }
    const parts = COLLECTION_NAMES.map((c) => this.parts.get(c)!)
    const errors = parts.flatMap((p) => p.errors ?? [])
    if (errors.length) return { ok: false, errors: new ContentErrors(sortErrors(errors)) }
    const collections = {} as BuiltContent['collections']
    const summaries = {} as BuiltContent['summaries']
    let builtAt = EPOCH
    for (const [i, name] of COLLECTION_NAMES.entries()) {
      const content = parts[i]!.content!
      collections[name] = content.collections[name]
      summaries[name] = content.summaries[name]
      if (content.builtAt > builtAt) builtAt = content.builtAt
    }
    return { ok: true, content: { site: this.site, collections, summaries, builtAt }, changed }
  }

  /** The sources in the order a full build reads them (collection, then file name), for the input hash. */
  sources(): SourceFile[] {
    const order = (s: SourceFile) => COLLECTION_NAMES.indexOf(s.collection)
    return [...this.compiled.values()]
      .map((c) => c.source)
      .sort((a, b) => order(a) - order(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }

  /** (Re)compile one file; false when it no longer exists. */
  private async compile(collection: CollectionName, name: string): Promise<boolean> {
    const source = await readSource(this.root, collection, name).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EISDIR') return undefined
      throw error
    })
    if (!source) return false
    this.compiled.set(source.path, compileFile(source, this.site, this.cache))
    return true
  }
}
