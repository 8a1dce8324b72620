/**
 * The watch mode's view of content/: every file compiled once, kept in memory,
 * and recompiled one at a time as the author edits. Assembling the published
 * content from the compiled files is cheap next to compiling them.
 *
 * File events are only hints: each file is re-read and compared by content
 * hash, so a repeated or spurious event costs a read, and `stale()` finds what
 * the watcher missed by comparing every file's stat with the one taken when it
 * was last read.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { COLLECTION_NAMES, isCollectionName, type CollectionName } from '../contract/collections.ts'
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

const SITE = 'content/site.yaml'
const PARALLEL_STATS = 64

export class ContentState {
  private compiled = new Map<string, CompiledFile>()
  /** Each collection's last assembly: its content, or its errors. */
  private parts = new Map<CollectionName, { content?: BuiltContent; errors?: ContentError[] }>()
  private site!: SiteConfig
  private siteHash = ''
  /** Each file's stat (size, times, inode) taken just before it was last read; `stale()` compares against it. */
  private stats = new Map<string, string>()

  private constructor(readonly root: string, private readonly cache: RenderCache) {}

  static async open(root: string): Promise<ContentState> {
    const state = new ContentState(root, await RenderCache.open(root))
    await state.readSite()
    state.site = await loadSiteConfig(root)
    for (const collection of COLLECTION_NAMES) {
      const names = await readdir(join(root, 'content', collection)).catch(() => [] as string[])
      for (const name of names.filter((n) => n.endsWith('.md')).sort()) await state.compile(collection, name)
    }
    await state.cache.save()
    return state
  }

  /**
   * Apply changed, added or removed files; a changed site.yaml recompiles
   * everything. Undefined when no file's content differs from what is compiled.
   */
  async apply(paths: ContentPath[]): Promise<(Outcome & { files: string[] }) | undefined> {
    const changed = new Set<CollectionName>()
    const files: string[] = []
    if (paths.some((p) => p.kind === 'site') && (await this.readSite())) {
      files.push(SITE)
      this.site = await loadSiteConfig(this.root)
      this.parts.clear()
      const sources = [...this.compiled.values()].map((c) => c.source)
      for (const source of sources) this.compiled.set(source.path, compileFile(source, this.site, this.cache))
      COLLECTION_NAMES.forEach((c) => changed.add(c))
    }
    for (const p of paths) {
      if (p.kind !== 'item') continue
      const previous = this.compiled.get(p.path)
      if (!(await this.compile(p.collection, p.name))) {
        if (!previous) continue
        this.compiled.delete(p.path)
      } else if (this.compiled.get(p.path) === previous) continue
      changed.add(p.collection)
      files.push(p.path)
    }
    return files.length ? { ...this.assemble(changed), files } : undefined
  }

  /** Files added, removed or rewritten since they were last read, found by stat alone. */
  async stale(): Promise<ContentPath[]> {
    const found: ContentPath[] = []
    if ((await signature(join(this.root, SITE))) !== this.stats.get(SITE)) found.push({ kind: 'site' })
    const listed = new Map<string, ContentPath & { kind: 'item' }>()
    for (const collection of COLLECTION_NAMES) {
      const names = await readdir(join(this.root, 'content', collection)).catch(() => [] as string[])
      for (const name of names.filter((n) => n.endsWith('.md'))) listed.set(`content/${collection}/${name}`, { kind: 'item', collection, name, path: `content/${collection}/${name}` })
    }
    // A stat each, overlapping in the thread pool, so 10,000 files cost tens of milliseconds.
    const items = [...listed.values()]
    for (let i = 0; i < items.length; i += PARALLEL_STATS) {
      const batch = items.slice(i, i + PARALLEL_STATS)
      const signatures = await Promise.all(batch.map((p) => signature(join(this.root, p.path))))
      batch.forEach((p, j) => signatures[j] !== this.stats.get(p.path) && found.push(p))
    }
    for (const c of this.compiled.values()) {
      if (!listed.has(c.source.path)) found.push({ kind: 'item', collection: c.collection, name: `${c.source.basename}.md`, path: c.source.path })
    }
    return found
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

  /** (Re)compile one file unless its content is what is compiled; false when it no longer exists. */
  private async compile(collection: CollectionName, name: string): Promise<boolean> {
    const path = `content/${collection}/${name}`
    // Stat before reading: a write in between makes the next stale() re-read, never miss.
    this.stats.set(path, await signature(join(this.root, path)))
    const source = await readSource(this.root, collection, name).catch(missing)
    if (!source) {
      this.stats.delete(path)
      return false
    }
    if (this.compiled.get(path)?.source.hash !== source.hash) this.compiled.set(path, compileFile(source, this.site, this.cache))
    return true
  }

  /** Re-read site.yaml; true when its content changed. */
  private async readSite(): Promise<boolean> {
    this.stats.set(SITE, await signature(join(this.root, SITE)))
    const raw = await readFile(join(this.root, SITE)).catch(missing)
    const hash = raw ? createHash('sha256').update(raw).digest('hex') : ''
    if (hash === this.siteHash) return false
    this.siteHash = hash
    return true
  }
}

function missing(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT' || error.code === 'EISDIR') return undefined
  throw error
}

/** What changes whenever a file's content does (ctime in ns changes on every write); 'missing' when it is gone. */
async function signature(file: string): Promise<string> {
  const s = await stat(file, { bigint: true }).catch(missing)
  return s ? `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : 'missing'
}
