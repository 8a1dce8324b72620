/**
 * The one compiler behind `npm run build`, `npm run check` and `npm run dev`:
 * an incremental graph from sources to compiled files to collections, and the
 * emit schedule (emit-schedule.ts) from there to emitted files. A build opens
 * it over every file and emits everything once; the watch mode feeds it the
 * files that changed and emits again, and only what depends on a change is
 * redone:
 *
 * - a source is recompiled only when its bytes changed (and its Markdown
 *   rendered only when its body did: the render cache is keyed by hash);
 * - a collection is assembled again only when one of its files changed (one
 *   saved file moves its record into place), and linked again only where the
 *   change reaches (link.ts);
 * - an emitter runs again only when its input did (emit-schedule.ts).
 *
 * The output is a set of files in memory (outputs.ts); writing dist/ and the
 * dev server's snapshots both consume it.
 */
import { setImmediate } from 'node:timers/promises'
import type { CollectionName } from '../../contract/model/model.ts'
import type { ApiOrigin } from '../../contract/api-origin.ts'
import { SITE_PATH, type SiteConfig } from '../core/site.ts'
import { itemPath, type ContentPath, type SourceFile } from '../core/sources.ts'
import { MediaStore } from '../media/store.ts'
import { RenderCache } from '../pipeline/cache.ts'
import { compileFile, type CompiledFile, type ParsedFile } from '../pipeline/compile.ts'
import { attachMedia } from '../pipeline/media-record.ts'
import { clockSeconds, isoSeconds, settingsClock } from '../pipeline/schedule.ts'
import { compileSources } from './compile-all.ts'
import { assetPaths, mediaFolders, usersOf, workingFiles } from './compiled-files.ts'
import { CompilerEmit } from './compiler-emit.ts'
import type { CompilerOptions, Update } from './compiler-options.ts'
import { ContentGraph, type Replaced } from './content-graph.ts'
import { ContentSources } from './content-sources.ts'
import { EmitSchedule } from './emit-schedule.ts'
import { previewItems, type PreviewItem } from './preview.ts'
import { ScheduleTiming } from './schedule-timing.ts'
import { warmUp } from './warm-up.ts'

export type { BuildOutput } from './emit-schedule.ts'

export class Compiler extends CompilerEmit {
  /** site.yaml and every source by path (content-sources.ts). */
  private readonly inputs: ContentSources
  /** Each source's compiled form (absent while site.yaml has errors). */
  private readonly compiled = new Map<string, CompiledFile>()
  private readonly timing = new ScheduleTiming(() => this.site, this.compiled)
  private readonly graph = new ContentGraph(this.timing)
  protected readonly schedule: EmitSchedule
  /** Counts the updates that changed something, so a preview can tell it is stale. */
  private revision = 0
  /** The clock (seconds) the content was last assembled as of: a release or expiry after it is due at the next update. */
  private asOf = 0

  private constructor(
    readonly root: string,
    private readonly cache: RenderCache,
    private readonly threads: number | undefined,
    offThread: boolean,
    private readonly media: MediaStore,
    private readonly processMedia: boolean,
    private readonly clock: () => number,
    /** The origin the records' URLs name, over site.yaml's `api_url` (contract/api-origin.ts). */
    readonly apiOrigin: ApiOrigin,
  ) {
    super()
    this.inputs = new ContentSources(root, apiOrigin)
    this.schedule = new EmitSchedule({
      root,
      offThread,
      apiOrigin,
      inputsInOrder: () => [...this.inputs.inOrder(), ...this.assetsInOrder()],
      workingFiles: () => workingFiles(this.compiled.values()),
    })
  }

  /** Read and compile every file of the project. Content errors do not throw: see `current()`. */
  static async open(options: CompilerOptions): Promise<Compiler> {
    const compiler = new Compiler(
      options.root,
      await RenderCache.open(options.cache === false ? undefined : options.root),
      options.threads,
      options.offThread ?? true,
      await MediaStore.open(options.root, {
        fresh: options.cache === false,
        threads: options.threads,
        settings: options.mediaSettings,
      }),
      options.processMedia ?? true,
      options.clock ?? settingsClock(),
      options.apiOrigin,
    )
    if (options.readHistoryEarly) compiler.schedule.readHistoryEarly()
    await compiler.inputs.readSite()
    compiler.inputs.readAll()
    await compiler.compileAll()
    compiler.assemble(new Set(compiler.site?.model.names), undefined, clockSeconds(compiler.clock()))
    return compiler
  }

  /** Each input's path (sources, then images), the stat taken before it was read, and its hash: the no-change check's index. */
  sourceIndex(): [path: string, signature: string, hash: string][] {
    const assets = this.assetsInOrder().flatMap((a) => {
      const sig = this.media.signatureOf(a.path)
      return sig ? [[a.path, sig, a.hash] as [string, string, string]] : []
    })
    return [...this.inputs.index(), ...assets]
  }

  /** How many content files there are (drafts and files with errors included). */
  fileCount(): number {
    return this.inputs.files.size
  }

  /** Every item, drafts included, in path order, and the revision they are at. */
  preview(): { revision: number; items: PreviewItem[]; asOf: string } {
    const content = this.state.ok ? this.state.content : undefined
    const items = previewItems(content, this.site?.language, this.compiled.values(), this.timing.schedules(), this.asOf)
    return { revision: this.revision, items, asOf: isoSeconds(this.asOf) }
  }

  /** The site settings, once site.yaml has been read without errors. */
  siteSettings(): SiteConfig | undefined {
    return this.site
  }

  /** Warm the edit's own path for at most `budgetMs` (warm-up.ts). */
  async warmUp(budgetMs: number): Promise<void> {
    if (this.site) await warmUp([...this.inputs.files.values()], this.site, budgetMs)
  }

  /**
   * Re-read the given files (changed, added or removed; site.yaml recompiles
   * everything). Undefined when none of them differs from what is compiled.
   */
  async update(given: readonly ContentPath[]): Promise<Update | undefined> {
    const changed = new Set<CollectionName>()
    /** Per changed collection, the one file replaced (before, after); null once more than one changed. */
    const replaced = new Map<CollectionName, [CompiledFile | undefined, CompiledFile | undefined] | null>()
    const files: string[] = []
    // A release or an expiry came due since the last assembly: every collection is assembled again.
    const now = clockSeconds(this.clock())
    const released = this.timing.due(this.asOf, now)
    if (released) {
      files.push(`${isoSeconds(released)} (scheduled release or expiry)`)
      for (const c of this.site?.model.names ?? []) changed.add(c)
    }
    // An image changed: the files that use it are compiled again, though their own bytes did not change.
    const assets = new Set(given.flatMap((p) => (p.kind === 'asset' ? [p.path] : [])))
    const users = assets.size ? usersOf(this.compiled.values(), assets) : []
    const forced = new Set(users.map((c) => c.source.path))
    const paths = [...given, ...users.map((c) => itemPath(c.collection, c.source.path.split('/').slice(2).join('/')))]
    if (paths.some((p) => p.kind === 'site') && (await this.inputs.readSite())) {
      files.push(SITE_PATH)
      await this.compileAll()
      for (const c of this.site?.model.names ?? []) changed.add(c)
      this.schedule.siteChanged()
    }
    // A change of many files (a branch switched) lets the events that came meanwhile in between
    // files (requests to answer): the reads below are synchronous, and a text file's compile never waits.
    const several = paths.length > 1
    for (const p of paths) {
      if (p.kind !== 'item') continue
      if (several) await setImmediate()
      const source = this.inputs.read(p)
      const previous = this.inputs.files.get(p.path)
      const before = this.compiled.get(p.path)
      if (!source) {
        if (!previous) continue
        this.inputs.files.delete(p.path)
        this.setCompiled(p.path, undefined)
      } else if (previous?.hash === source.hash && !forced.delete(p.path)) {
        continue
      } else {
        this.inputs.files.set(p.path, source)
        // A file of a folder the model does not name is a source (the input hash has it) but no item.
        if (this.site?.collections[source.collection]) this.setCompiled(p.path, await this.compile(source))
      }
      replaced.set(p.collection, replaced.has(p.collection) ? null : [before, this.compiled.get(p.path)])
      changed.add(p.collection)
      files.push(p.path)
    }
    if (!files.length) return undefined
    this.revision++
    this.assemble(changed, files.includes(SITE_PATH) || released ? undefined : replaced, now)
    return { files, state: this.state }
  }

  /** Files added, removed or rewritten since they were last read (images too), found by their stat alone; undefined if aborted. */
  async stale(signal?: AbortSignal): Promise<ContentPath[] | undefined> {
    const found = await this.inputs.stale(() => signal?.aborted === true)
    if (!found || signal?.aborted) return undefined
    const assets = await this.media.stale(assetPaths(this.compiled.values()))
    // A release or an expiry that came due is found like an edit, and applied as one (see update).
    const due = this.timing.due(this.asOf, clockSeconds(this.clock())) ? [{ kind: 'site' as const }] : []
    return [...found, ...assets.map((path) => ({ kind: 'asset' as const, path })), ...due]
  }
  /** The folders (absolute) of the images the files at `paths` use: what the watch mode follows (compiled-files.ts). */
  mediaFolders(paths?: readonly string[]): string[] {
    return mediaFolders(this.root, this.compiled, paths)
  }

  /** Write the render cache (bodies rendered in this run) and the media index to disk. */
  async saveCache(): Promise<void> {
    await this.cache.save()
    await this.media.save()
  }

  /** Delete the processed images no item uses any more (after a build). */
  pruneMedia(): Promise<void> {
    return this.media.prune()
  }

  /** Compile one file, its images checked (and processed) too. */
  private async compile(source: SourceFile, parsed?: ParsedFile): Promise<CompiledFile> {
    const file = compileFile(source, this.site!, this.cache, parsed)
    await attachMedia(file, this.media, this.site!, this.processMedia)
    return file
  }

  /** The images the compiled files use, with the hash of their bytes: build inputs like the sources. */
  private assetsInOrder(): { path: string; hash: string }[] {
    return assetPaths(this.compiled.values()).flatMap((path) => {
      const hash = this.media.hashOf(path)
      return hash ? [{ path, hash }] : []
    })
  }

  /** Compile every source (none while site.yaml has errors; compile-all.ts). */
  private async compileAll(): Promise<void> {
    this.compiled.clear()
    const site = this.site
    this.timing.reset(site?.language ?? '')
    this.graph.reset(site?.language ?? '')
    if (!site) return
    // The items of the model's collections: a folder it does not name is left alone.
    const sources = [...this.inputs.files.values()].filter((s) => site.collections[s.collection])
    const compiled = await compileSources(sources, site, this.cache, this.threads, (s, p) => this.compile(s, p))
    for (const file of compiled) this.setCompiled(file.source.path, file)
  }

  /** Put (or, with no file, remove) the compiled file at `path`, and keep what is derived from all files in step. */
  private setCompiled(path: string, file: CompiledFile | undefined): void {
    const before = this.compiled.get(path)
    this.graph.replace(before, file)
    this.timing.replace(before, file)
    if (file) this.compiled.set(path, file)
    else this.compiled.delete(path)
  }

  /** Assemble the changed collections into the published content as of `now` (seconds; content-graph.ts). */
  private assemble(changed: ReadonlySet<CollectionName>, replaced: Replaced | undefined, now: number): void {
    this.asOf = now
    if (this.inputs.siteError) {
      this.state = { ok: false, errors: this.inputs.siteError }
      return
    }
    const assembled = this.graph.assemble(this.site!, this.compiled, changed, replaced, now, this.good)
    this.state = assembled.state
    if (!assembled.state.ok) return
    this.schedule.contentChanged(assembled.changed!)
    this.good = assembled.state.content
  }

  private get site(): SiteConfig | undefined {
    return this.inputs.site
  }
}
