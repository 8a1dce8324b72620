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
import { availableParallelism } from 'node:os'
import { setImmediate } from 'node:timers/promises'
import { dirname, join } from 'node:path'
import type { CollectionName } from '../../contract/model/model.ts'
import type { FullRecord } from '../../contract/records.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import { ContentErrors, sortErrors, type ContentError } from '../core/errors.ts'
import type { BuiltContent } from '../emit/types.ts'
import { blobId } from '../history/git-history.ts'
import type { CommittedHistory, FileState } from '../history/types.ts'
import { RenderCache } from '../pipeline/cache.ts'
import { checkParsed, compileFile, parseFile, type CompiledFile, type ParsedFile } from '../pipeline/compile.ts'
import { attachMedia } from '../pipeline/media-record.ts'
import { MediaStore } from '../media/store.ts'
import type { MediaSettings } from '../media/recipes.ts'
import type { SourceFile } from '../core/sources.ts'
import { prerenderBodies, RenderPool, renderWork, workersWorth } from '../pipeline/render-pool.ts'
import { loadSiteConfig, SITE_PATH, type SiteConfig } from '../core/site.ts'
import type { ApiOrigin } from '../../contract/api-origin.ts'
import { assembleCollection, combine, reassembleOne, type CollectionPart } from './assemble.ts'
import { clockSeconds, isoSeconds, settingsClock } from '../pipeline/schedule.ts'
import { EmitSchedule, type BuildOutput } from './emit-schedule.ts'
import type { FullPass } from './full-pass.ts'
import { referenceErrors } from './link.ts'
import { Linker } from './linker.ts'
import { LocaleClaims } from './locale-errors.ts'
import { TranslationChecks } from './translation-checks.ts'
import { relinkLocales } from './locale-edit.ts'
import { TimelineIndex } from './timeline-index.ts'
import { byLocale, linkLocales, type LocaleState } from './locales.ts'
import { TranslationLinks, type FileChanges } from './translation-links.ts'
import { fileRelease, neverPublished, publicationOf, type FileRelease, type Releases } from './translation-release.ts'
import { PersonSlugs } from './person-slugs.ts'
import { aliasErrors } from './alias-checks.ts'
import { ReleaseIndex } from './release-index.ts'
import {
  itemPath,
  listContent,
  readIfPresentSync,
  readSiteBytes,
  SourceStats,
  type ContentPath,
} from '../core/sources.ts'

export type { BuildOutput } from './emit-schedule.ts'

export interface CompilerOptions {
  /** Project root holding content/. */
  root: string
  /** Keep rendered bodies in `<root>/.cache` between runs (default true). */
  cache?: boolean
  /** Threads rendering Markdown in a large build (BUILD_THREADS); default one per core. */
  threads?: number
  /** Run the search index on a worker thread for large content (default true). */
  offThread?: boolean
  /** Process local images (default true); `npm run check` only checks them. */
  processMedia?: boolean
  /** What images are processed with (default: this code's, build/media/recipes.ts). */
  mediaSettings?: MediaSettings
  /** The build's clock in milliseconds (default BUILD_TIME, else the time): what is scheduled and expired. */
  clock?: () => number
  /** Ask git for content/'s history before compiling, for the first full emit (a build's; default false). */
  readHistoryEarly?: boolean
  /** The origin the records' URLs name (contract/api-origin.ts); default site.yaml's `api_url`. */
  apiOrigin?: ApiOrigin
}

/** Files the watch mode compiles after its first build to warm the JIT for edits (Compiler.warmUp). */
const WARM_UP_FILES = 64

/** The content as last compiled: published and ready to emit, or the errors that stop it. */
export type CompileState = { ok: true; content: BuiltContent } | { ok: false; errors: ContentErrors }

/** What `update` did: the files whose content changed, and the state after. */
export interface Update {
  files: string[]
  state: CompileState
}

/** An item as the author sees it in the preview: drafts too, with its own errors. */
export interface PreviewItem {
  path: string
  collection: CollectionName
  /** The locale the file is written in (the default locale's for a file without one in its name). */
  locale: string
  slug: string
  /** The item the file is of, the same for an item and its translations (`<collection>/<key>`: the preview's `item`). */
  key: string
  /** Never published as it stands: a draft, or a translation of an item that is (`draftItem`). */
  draft: boolean
  /** A translation's item (its default-locale file) when that item is a draft. */
  draftItem?: string
  /** Its record (a published one with its related items resolved); undefined when the file has errors. */
  record: FullRecord | undefined
  /**
   * Published as of the compiler's clock, or scheduled (released at `at`) or
   * expired (since `at`); `item`: a translation's item, when its time is the
   * one the translation waits for (or came down with).
   */
  release: { state: 'live' } | { state: 'scheduled' | 'expired'; at: string; item?: string }
}

export class Compiler {
  private site: SiteConfig | undefined
  private siteError: ContentErrors | undefined
  private siteHash = ''
  /** Every source by path, and its compiled form (absent while site.yaml has errors). */
  private readonly sources = new Map<string, SourceFile>()
  private readonly compiled = new Map<string, CompiledFile>()
  /** The releases of `compiled`, until it changes (each idle rescan asks for them). */
  private releasesNow: Releases | undefined
  /**
   * The release and expiry instants of the files that may be published, kept by difference: the files
   * whose window may have changed since (`retimed`), against the releases it was worked out with.
   */
  private readonly timeline = new TimelineIndex()
  private retimed = new Set<CompiledFile>()
  private timelineReleases: Releases | undefined
  /** What no one file shows, kept file by file: two files of one locale of an item, one person's two slugs. */
  private readonly claims = new LocaleClaims()
  private readonly people = new PersonSlugs()
  private readonly releaseIndex = new ReleaseIndex()
  private readonly translationChecks = new TranslationChecks()
  /** The translations' link check, and the files replaced since it last ran. */
  private readonly translationLinks = new TranslationLinks()
  private linkChanges: FileChanges = 'all'
  private readonly parts = new Map<CollectionName, CollectionPart>()
  private readonly linker = new Linker()
  /** What the last locale link kept for the next edit's (a multilingual site's). */
  private locales: LocaleState | undefined
  private state: CompileState = { ok: false, errors: new ContentErrors([]) }
  /** The last content without errors: what emit() emits. */
  private good: BuiltContent | undefined
  private readonly schedule: EmitSchedule
  /** Counts the updates that changed something, so a preview can tell it is stale. */
  private revision = 0
  private readonly stats: SourceStats
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
    this.stats = new SourceStats(root)
    this.schedule = new EmitSchedule({
      root,
      offThread,
      apiOrigin,
      inputsInOrder: () => [...this.sourcesInOrder(), ...this.assetsInOrder()],
      workingFiles: () => this.workingFiles(),
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
    await compiler.readSite()
    const paths = listContent(options.root)
    // Synchronously: nothing else waits for this thread yet, and a read through the pool costs it more.
    for (const path of paths) compiler.stats.takeSync(path)
    for (const path of paths) {
      const source = readIfPresentSync(options.root, path)
      if (source) compiler.sources.set(source.path, source)
    }
    await compiler.compileAll()
    compiler.assemble(new Set(compiler.site?.model.names), undefined, clockSeconds(compiler.clock()))
    return compiler
  }

  /** Each source's path, the stat taken before it was read, and its hash: the no-change check's index. */
  sourceIndex(): [path: string, signature: string, hash: string][] {
    const items = [...this.sources.values()].flatMap((s) => {
      const sig = this.stats.signatureOf(s.path)
      return sig ? [[s.path, sig, s.hash] as [string, string, string]] : []
    })
    const assets = this.assetsInOrder().flatMap((a) => {
      const sig = this.media.signatureOf(a.path)
      return sig ? [[a.path, sig, a.hash] as [string, string, string]] : []
    })
    return [...items, ...assets]
  }

  /** How many content files there are (drafts and files with errors included). */
  fileCount(): number {
    return this.sources.size
  }

  /** Every item, drafts included, in path order, and the revision they are at. */
  preview(): { revision: number; items: PreviewItem[]; asOf: string } {
    // Published records by locale, collection and slug (a translation may share its item's slug).
    const published = new Map<string, FullRecord>()
    const content = this.state.ok ? this.state.content : undefined
    const language = this.site?.language
    if (content) {
      const { names } = content.site.model
      for (const c of names) for (const r of content.collections[c]!) published.set(`${language}/${c}/${r.slug}`, r)
      for (const [locale, own] of Object.entries(content.locales ?? {}))
        for (const c of names)
          for (const r of own.collections[c]!) if (r.locale === locale) published.set(`${locale}/${c}/${r.slug}`, r)
    }
    const releases = this.releases()
    const items = [...this.compiled.values()]
      .map((c): PreviewItem => {
        const item = releases.get(c)?.item
        return {
          path: c.source.path,
          collection: c.collection,
          locale: c.locale,
          slug: c.slug,
          key: c.key,
          draft: publicationOf(c, releases).draft,
          ...(item?.draft && { draftItem: item.source.path }),
          record: published.get(`${c.locale}/${c.collection}/${c.slug}`) ?? c.record,
          release: previewRelease(fileRelease(c, releases, this.asOf)),
        }
      })
      .sort((a, b) => (a.path < b.path ? -1 : 1))
    return { revision: this.revision, items, asOf: isoSeconds(this.asOf) }
  }

  /** The site settings, once site.yaml has been read without errors. */
  siteSettings(): SiteConfig | undefined {
    return this.site
  }

  /**
   * Run the edit's own path (parse, check, render, derive) over up to WARM_UP_FILES of the
   * content, spread across it, for at most `budgetMs`, and throw the results away. The watch
   * mode's first build finds the bodies in the cache and runs none of that code, so the first
   * edits ran it cold: a 3 KB body rendered in 3-15 ms, ~1 ms once warm. Pure: a scratch render
   * cache, nothing stored. One file per turn of the event loop.
   */
  async warmUp(budgetMs: number): Promise<void> {
    const site = this.site
    if (!site) return
    const until = performance.now() + budgetMs
    const sources = [...this.sources.values()]
    const step = Math.max(1, Math.floor(sources.length / WARM_UP_FILES))
    const scratch = await RenderCache.open(undefined)
    for (let i = 0; i < sources.length && performance.now() < until; i += step) {
      compileFile(sources[i]!, site, scratch)
      await setImmediate()
    }
  }

  /** The content as last compiled. */
  current(): CompileState {
    return this.state
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
    const released = this.releaseDue(now)
    if (released) {
      files.push(`${isoSeconds(released)} (scheduled release or expiry)`)
      for (const c of this.site?.model.names ?? []) changed.add(c)
    }
    // An image changed: the files that use it are compiled again, though their own bytes did not change.
    const assets = new Set(given.flatMap((p) => (p.kind === 'asset' ? [p.path] : [])))
    const users = assets.size ? this.usersOf(assets) : []
    const forced = new Set(users.map((c) => c.source.path))
    const paths = [...given, ...users.map((c) => itemPath(c.collection, c.source.path.split('/').slice(2).join('/')))]
    if (paths.some((p) => p.kind === 'site') && (await this.readSite())) {
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
      // On this thread: a stat and a read take microseconds here, and through the thread pool they can
      // queue behind the full pass's scan of every file (milliseconds that an edit waited).
      this.stats.takeSync(p)
      const source = readIfPresentSync(this.root, p)
      const previous = this.sources.get(p.path)
      const before = this.compiled.get(p.path)
      if (!source) {
        this.stats.forget(p)
        if (!previous) continue
        this.sources.delete(p.path)
        this.setCompiled(p.path, undefined)
      } else if (previous?.hash === source.hash && !forced.delete(p.path)) {
        continue
      } else {
        this.sources.set(p.path, source)
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
    const found = await this.stats.stale(this.sources.keys(), () => signal?.aborted === true)
    if (!found || signal?.aborted) return undefined
    const assets = await this.media.stale(this.assetPaths())
    // A release or an expiry that came due is found like an edit, and applied as one (see update).
    const due = this.releaseDue(clockSeconds(this.clock())) ? [{ kind: 'site' as const }] : []
    return [...found, ...assets.map((path) => ({ kind: 'asset' as const, path })), ...due]
  }

  /**
   * The folders (absolute) of the images the files at `paths` use (every
   * compiled file's when none are given, or site.yaml is one of them, which
   * compiles them all): what the watch mode follows.
   */
  mediaFolders(paths?: readonly string[]): string[] {
    const some = paths && !paths.includes(SITE_PATH)
    const files = some ? paths.flatMap((p) => this.compiled.get(p) ?? []) : this.compiled.values()
    const folders = new Set<string>()
    for (const file of files) {
      for (const ref of file.media) if (ref.path) folders.add(dirname(join(this.root, ref.path)))
      // An item in a folder of its own (`my-post/index.md`): its translations appear there too.
      if (file.source.path.split('/').length === 4) folders.add(dirname(join(this.root, file.source.path)))
    }
    return [...folders]
  }

  /** Whether every output reflects the last good content. */
  isComplete(): boolean {
    return this.schedule.isComplete()
  }

  /**
   * Emit what the changes since the last emit call for. `edit` runs the
   * per-collection emitters only (the item and its lists, at once); `full`
   * runs every emitter whose input changed, the search index on a worker
   * thread for large content. A full emit stops early, returning undefined,
   * when `signal` aborts (a newer edit is waiting); what it did not finish
   * stays pending. `made` gets each collection's files as soon as they are made.
   */
  emit(
    mode: 'edit' | 'full',
    signal?: AbortSignal,
    made?: (files: ReadonlyMap<string, BuildFile>) => void,
  ): Promise<BuildOutput | undefined> {
    return this.schedule.emit(this.emittable(), mode, signal, made)
  }

  /**
   * Start the next full emit's work on other threads (the search index) now:
   * a build calls it before `emit('edit')`, which then runs alongside.
   */
  startOffThread(): Promise<void> {
    return this.schedule.startOffThread(this.emittable())
  }

  /** The last good content, which emit() emits. */
  private emittable(): BuiltContent {
    if (!this.good) throw new Error('nothing to emit: the content has errors')
    return this.good
  }

  /** Stop the work startOffThread began, when no full emit will take it. */
  cancelOffThread(): void {
    this.schedule.cancelStarted()
  }

  /** What a full emit made, for a compiler on another thread to adopt (full-pass.ts). */
  fullPass(output: BuildOutput): FullPass {
    return this.schedule.fullPass(output)
  }

  /**
   * Take the whole-content files of a full pass another compiler made over
   * the same files (the watch mode's worker); the complete output, or
   * undefined when that compiler's content is not this one's (the build ids
   * differ: an edit came in meanwhile), which changes nothing.
   */
  adoptFull(pass: FullPass): BuildOutput | undefined {
    if (!this.good || !this.state.ok) return undefined
    return this.schedule.adoptFull(this.good, pass)
  }

  /** content/'s history as the last full emit read it (undefined before one). */
  committedHistory(): CommittedHistory | undefined {
    return this.schedule.committedHistory()
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

  /** Every compiled file as content/'s history sees it. */
  private workingFiles(): Map<string, FileState> {
    const working = new Map<string, FileState>()
    for (const file of this.compiled.values()) {
      working.set(file.source.path, {
        collection: file.collection,
        key: file.key,
        // As the name claims it, like git-history.ts reads it (the replay matches it to site.yaml's locales).
        ...(file.source.locale !== undefined && { locale: file.source.locale }),
        slug: file.slug,
        published: !file.draft,
        blob: blobOf(file.source),
        window: file.window,
        ...(file.aliases.length && { aliases: file.aliases.map((a) => a.alias) }),
      })
    }
    return working
  }

  /** Compile one file, its images checked (and processed) too. */
  private async compile(source: SourceFile, parsed?: ParsedFile): Promise<CompiledFile> {
    const file = compileFile(source, this.site!, this.cache, parsed)
    await attachMedia(file, this.media, this.site!, this.processMedia)
    return file
  }

  /** The compiled files that use one of `assets` (image paths). */
  private usersOf(assets: ReadonlySet<string>): CompiledFile[] {
    return [...this.compiled.values()].filter((c) => c.media.some((m) => m.path && assets.has(m.path)))
  }

  /** Every image file the compiled files name, in path order (present or not). */
  private assetPaths(): string[] {
    const paths = new Set<string>()
    for (const file of this.compiled.values()) for (const ref of file.media) if (ref.path) paths.add(ref.path)
    return [...paths].sort()
  }

  /** The images the compiled files use, with the hash of their bytes: build inputs like the sources. */
  private assetsInOrder(): { path: string; hash: string }[] {
    return this.assetPaths().flatMap((path) => {
      const hash = this.media.hashOf(path)
      return hash ? [{ path, hash }] : []
    })
  }

  /**
   * Compile every source (none while site.yaml has errors): parse all, render
   * the bodies the cache lacks on every core, then compile each, finding its
   * body rendered. With nothing cached (a cold build) the render workers the
   * sources are worth start first, and load while this thread parses.
   */
  private async compileAll(): Promise<void> {
    this.compiled.clear()
    this.linkChanges = 'all'
    this.claims.clear()
    this.people.clear()
    this.releasesNow = undefined
    this.timelineReleases = undefined
    const site = this.site
    this.releaseIndex.reset(site?.language ?? '')
    this.translationChecks.reset(site?.language ?? '')
    if (!site) return
    // The items of the model's collections: a folder it does not name is left alone.
    const sources = [...this.sources.values()].filter((s) => site.collections[s.collection])
    const threads = this.threads ?? availableParallelism()
    const work = this.cache.size === 0 ? sources.reduce((sum, s) => sum + renderWork(s.raw), 0) : 0
    const pool = work ? RenderPool.start(workersWorth(work, threads), this.cache) : undefined
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
        this.cache,
        threads,
      )
    const compiled = await Promise.all(sources.map((source, i) => this.compile(source, parsed[i])))
    for (const file of compiled) this.setCompiled(file.source.path, file)
  }

  /** Put (or, with no file, remove) the compiled file at `path`, and keep what is derived from all files in step. */
  private setCompiled(path: string, file: CompiledFile | undefined): void {
    const before = this.compiled.get(path)
    if (this.linkChanges !== 'all') this.linkChanges.push([before, file])
    // Their windows, and those of the translations bound to their items, are worked out again.
    for (const changed of [before, file]) {
      if (!changed) continue
      this.retimed.add(changed)
      for (const translation of this.releaseIndex.boundTo(changed)) this.retimed.add(translation)
    }
    if (before) {
      this.claims.delete(before)
      this.people.delete(before)
      this.releaseIndex.delete(before)
      this.translationChecks.delete(before)
    }
    if (file) {
      this.compiled.set(path, file)
      this.claims.add(file)
      this.people.add(file)
      this.releaseIndex.add(file)
      this.translationChecks.add(file)
    } else this.compiled.delete(path)
    this.releasesNow = undefined
  }

  /** Each translation's publication, bound to its item's (translation-release.ts). */
  private releases(): Releases {
    this.releasesNow ??= this.site ? this.releaseIndex.of(this.site, this.compiled.values()) : new Map()
    return this.releasesNow
  }

  /** Each translation's release, and the instants of every file that may be published: the build's timeline. */
  private published(): { releases: Releases; timeline: TimelineIndex } {
    const releases = this.releases()
    // The release index hands out one map as it keeps it; another map (an item with two default-locale
    // files: translation-release.ts works every release out anew) may differ anywhere.
    if (releases !== this.timelineReleases) {
      this.timeline.clear()
      this.timeline.refresh(this.compiled.values(), releases)
      this.timelineReleases = releases
    } else this.timeline.refresh(this.retimed, releases, (f) => this.compiled.get(f.source.path) === f)
    this.retimed = new Set()
    return { releases, timeline: this.timeline }
  }

  /** The latest release or expiry of a published file after the last assembly and at or before `now`, if any. */
  private releaseDue(now: number): number | undefined {
    const { timeline } = this.published()
    if (!timeline.passedBetween(this.asOf, now)) return undefined
    return timeline.at(now).last
  }

  /** Assemble the changed collections, combine all into the published content as of `now` (seconds) and link it. */
  private assemble(
    changed: ReadonlySet<CollectionName>,
    replaced: ReadonlyMap<CollectionName, [CompiledFile | undefined, CompiledFile | undefined] | null> | undefined,
    now: number,
  ): void {
    this.asOf = now
    if (this.siteError) {
      this.state = { ok: false, errors: this.siteError }
      return
    }
    const site = this.site!
    // The default locale's files go through the collections and the linker; translations join after (locales.ts).
    // Most sites have no translations: every file is the default locale's, no pass over them to sort them.
    const compiled = this.compiled
    const [own, translations]: [Iterable<CompiledFile>, CompiledFile[]] = this.releaseIndex.hasTranslations()
      ? byLocale(site, compiled.values())
      : [{ [Symbol.iterator]: () => compiled.values() }, []]
    const ownFiles = translations.length ? new Map([...own].map((f) => [f.source.path, f])) : compiled
    /** The one file an edit replaced, when that is all it did (the linkers' fast paths); 'none' when it was a translation. */
    let edit: [CompiledFile, CompiledFile] | 'none' | undefined
    const [only] = changed.size === 1 ? changed : []
    const one = only === undefined ? undefined : replaced?.get(only)
    const saved: [CompiledFile, CompiledFile] | undefined = one?.[0] && one[1] ? [one[0], one[1]] : undefined
    for (const collection of changed) {
      if (!site.collections[collection]) continue
      const one = replaced?.get(collection)
      // A translation saved again leaves the default locale's collection as it was.
      const translation = one?.[0] && one[1] && one[1].locale !== site.language && one[0].locale === one[1].locale
      const previous = this.parts.get(collection)
      if (translation && previous) {
        if (saved) edit = 'none'
        continue
      }
      const part = one?.[0] && one[1] && reassembleOne(site.collections[collection]!, previous, one[0], one[1], now)
      if (part && saved) edit = saved
      const files = part ? [] : [...ownFiles.values()].filter((c) => c.collection === collection)
      this.parts.set(collection, part || assembleCollection(site.collections[collection]!, files, now))
    }
    const errors: ContentError[] = site.model.names.flatMap((c) => {
      const part = this.parts.get(c)
      return part && !part.ok ? part.errors : []
    })
    // A translation is published only while its item is too: its window is bound to the item's.
    const { releases, timeline } = this.published()
    errors.push(...this.translationChecks.errors(site), ...neverPublished(releases))
    errors.push(...this.claims.errors(), ...this.people.errors(), ...aliasErrors(site, this.compiled.values()))
    const translationLinks = () => {
      const changes = this.linkChanges
      this.linkChanges = []
      const boundTo = (file: CompiledFile) => this.releaseIndex.boundTo(file)
      return this.translationLinks.errors(site, own, translations, releases, now, changes, boundTo)
    }
    if (errors.length) {
      // References and body links too, so an author sees every problem in one run.
      const all = [...errors, ...referenceErrors(ownFiles.values(), now), ...translationLinks()]
      this.state = { ok: false, errors: new ContentErrors(sortErrors(all)) }
      return
    }
    // Translations' releases and expiries (as bound to their items') change the content too.
    const base = combine(site, this.parts, { asOf: now, timeline: timeline.at(now) })
    const linked = this.linker.link(base.collections, ownFiles, now, edit)
    const linkErrors = [...linked.errors, ...translationLinks()]
    if (linkErrors.length) {
      this.state = { ok: false, errors: new ContentErrors(sortErrors(linkErrors)) }
      return
    }
    const merged = { ...base, collections: linked.records }
    // An edit's own records in their locales, from what the last link kept (locale-edit.ts); else every locale.
    const state = this.locales
    this.locales = undefined
    let content =
      state && saved && linked.replaced && relinkLocales(state, merged, saved, linked.replaced, releases, now)
    if (content) this.locales = state
    else ({ content, state: this.locales } = linkLocales(merged, own, translations, releases, now))
    // A collection changed when one of its files did, or when an item it points to did.
    this.schedule.contentChanged(
      site.model.names.filter((c) => changed.has(c) || !sameItems(this.good?.collections[c], content.collections[c]!)),
    )
    this.state = { ok: true, content }
    this.good = content
  }

  /** Re-read site.yaml; true when its bytes changed. */
  private async readSite(): Promise<boolean> {
    await this.stats.take({ kind: 'site' })
    const { hash } = await readSiteBytes(this.root)
    if (hash === this.siteHash && this.site) return false
    this.siteHash = hash
    try {
      this.site = withApiOrigin(await loadSiteConfig(this.root), this.apiOrigin)
      this.siteError = undefined
    } catch (error) {
      if (!(error instanceof ContentErrors)) throw error
      this.siteError = error
    }
    return true
  }

  /** The sources in the order a build reads them (folder, then path, as listContent lists them): the input hash's order. */
  private sourcesInOrder(): SourceFile[] {
    const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    return [...this.sources.values()].sort((a, b) => compare(a.collection, b.collection) || compare(a.path, b.path))
  }
}

/** `site` with the records' origin the build was given in place of `api_url`, if any. */
function withApiOrigin(site: SiteConfig, origin: ApiOrigin): SiteConfig {
  if (origin === undefined) return site
  const { apiUrl: _, ...rest } = site
  return origin === null ? rest : { ...rest, apiUrl: origin }
}

function previewRelease(release: FileRelease): PreviewItem['release'] {
  if (release.state === 'live') return release
  return { state: release.state, at: isoSeconds(release.at), ...(release.item && { item: release.item.source.path }) }
}

function sameItems(before: readonly FullRecord[] | undefined, after: readonly FullRecord[]): boolean {
  if (before === after) return true
  return before !== undefined && before.length === after.length && before.every((record, i) => record === after[i])
}

const blobIds = new WeakMap<SourceFile, string>()

/** The git blob id of a source, computed once per read of the file. */
function blobOf(source: SourceFile): string {
  let id = blobIds.get(source)
  if (id === undefined) blobIds.set(source, (id = blobId(source.raw)))
  return id
}
