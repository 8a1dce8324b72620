/**
 * The media cache: every local image the content uses, processed once per
 * source bytes and settings, under `<root>/.cache/media-v1/`. Every entry is
 * keyed by the hash of the bytes and by everything else that shapes its
 * output (recipe, encoders, sharp's and libvips' versions, MEDIA_VERSION:
 * the recipe key of recipes.ts), so a cache restored from another version of
 * the code (CI's restore-keys) answers only what that code would make. An image is
 * known by its stat first (as content files are), then by the hash of its
 * bytes, so an unrelated edit never reads it again and a renamed or copied
 * file is never processed again. Processing runs on sharp's (libuv's) thread
 * pool, at most `threads` images at a time, so memory stays bounded whatever
 * the number of images (with glibc's arenas capped: core/allocator.ts). Like the render cache, correctness never depends on
 * it: a missing or corrupt cache only costs time.
 */
import { createHash } from 'node:crypto'
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { signature } from '../core/sources.ts'
import { closest } from '../../contract/did-you-mean.ts'
import type { CardInput } from './card.ts'
import type { SourceMeta } from './inspect.ts'
import { Limit } from './limit.ts'
import type { ProcessedImage, Variant } from './process.ts'
import {
  mediaSettings,
  readerKey,
  recipeKey,
  settingsKey,
  stemOf,
  type MediaSettings,
  type RecipeName,
} from './recipes.ts'
import { SOCIAL_CARD } from '../../contract/media.ts'
import { etagOf } from '../../contract/etag.ts'

export type { ProcessedImage, Variant }

/** A local image checked (and, when asked, processed), or why an author must fix it. */
export type MediaResult =
  | { ok: true; meta: SourceMeta; image: ProcessedImage | undefined }
  | { ok: false; problem: string }

interface MediaIndex {
  /** Project-relative path → the stat and hash of the bytes last read there. */
  sources: Record<string, [signature: string, sha: string]>
  /** `sha:reader key` → what the header says. */
  meta: Record<string, SourceMeta>
  /** `sha:recipe:recipe key` → the processed image. */
  images: Record<string, ProcessedImage>
  cards: Record<string, Variant>
}

const CACHE_DIR = join('.cache', `media-v1`)

export class MediaStore {
  private index: MediaIndex = { sources: {}, meta: {}, images: {}, cards: {} }
  private readonly used = { sources: new Set<string>(), images: new Set<string>(), cards: new Set<string>() }
  private readonly inflight = new Map<string, Promise<MediaResult>>()
  /** Paths found missing when last looked for. */
  private readonly absent = new Set<string>()
  /** Image keys whose files were seen on disk in this run. */
  private readonly present = new Set<string>()
  private readonly limit: Limit
  private dirty = false
  readonly filesDir: string
  /** The recipe key of each recipe, the reader's key and the key of all settings (the cards'), once asked for. */
  private keysOfSettings: (Record<RecipeName, string> & { reader: string; all: string }) | undefined

  private constructor(
    readonly root: string,
    threads: number,
    /** Given, or this code's (loaded with the first image: content without images never loads sharp). */
    private givenSettings: MediaSettings | undefined,
  ) {
    this.filesDir = join(root, CACHE_DIR, 'files')
    this.limit = new Limit(Math.max(1, threads))
  }

  private get settings(): MediaSettings {
    this.givenSettings ??= mediaSettings()
    return this.givenSettings
  }

  private get keys(): Record<RecipeName, string> & { reader: string; all: string } {
    const settings = this.settings
    this.keysOfSettings ??= {
      image: recipeKey(settings, 'image'),
      portrait: recipeKey(settings, 'portrait'),
      reader: readerKey(settings),
      all: settingsKey(settings),
    }
    return this.keysOfSettings
  }

  /**
   * `fresh` ignores what an earlier run left (the files are still written under .cache/);
   * `settings`: what to process with (default: this code's, mediaSettings()).
   */
  static async open(
    root: string,
    options: { fresh?: boolean; threads?: number; settings?: MediaSettings } = {},
  ): Promise<MediaStore> {
    const store = new MediaStore(root, options.threads ?? availableParallelism(), options.settings)
    if (!options.fresh) {
      try {
        const stored = JSON.parse(await readFile(store.indexFile, 'utf8')) as MediaIndex
        if (stored.sources && stored.meta && stored.images && stored.cards) store.index = stored
      } catch {
        // No index yet, or unreadable: start empty.
      }
    }
    await mkdir(store.filesDir, { recursive: true })
    return store
  }

  private metaKey(sha: string): string {
    return `${sha}:${this.keys.reader}`
  }

  private imageKey(sha: string, recipe: RecipeName): string {
    return `${sha}:${recipe}:${this.keys[recipe]}`
  }

  private get indexFile(): string {
    return join(this.root, CACHE_DIR, 'index.json')
  }

  /** The file of an output, by name. */
  filePath(name: string): string {
    return join(this.filesDir, name)
  }

  /**
   * The image at `path` (project-relative) checked, and processed with
   * `recipe` unless `process` is false (`npm run check` reads headers only).
   */
  image(path: string, recipe: RecipeName, process: boolean): Promise<MediaResult> {
    const key = `${path}\0${recipe}\0${process}`
    let pending = this.inflight.get(key)
    if (!pending) {
      pending = this.load(path, recipe, process).finally(() => this.inflight.delete(key))
      this.inflight.set(key, pending)
    }
    return pending
  }

  private async load(path: string, recipe: RecipeName, process: boolean): Promise<MediaResult> {
    const absolute = join(this.root, path)
    const sig = await signature(absolute)
    if (sig === 'missing') {
      this.absent.add(path)
      return { ok: false, problem: await missing(absolute) }
    }
    this.absent.delete(path)
    const known = this.index.sources[path]
    if (known?.[0] === sig && this.index.meta[this.metaKey(known[1])]) {
      const hit = await this.cached(known[1], recipe, process)
      if (hit) {
        this.used.sources.add(path)
        return hit
      }
    }
    return this.limit.run(async () => {
      const bytes = await readFile(absolute)
      const sha = createHash('sha256').update(bytes).digest('hex')
      this.index.sources[path] = [sig, sha]
      this.used.sources.add(path)
      this.dirty = true
      const hit = await this.cached(sha, recipe, process)
      if (hit) return hit
      // sharp is loaded with the first image that needs it.
      const { inspectImage } = await import('./inspect.ts')
      const meta = await inspectImage(bytes, basename(path))
      if ('problem' in meta) return { ok: false, problem: meta.problem }
      this.index.meta[this.metaKey(sha)] = meta
      this.used.sources.add(path)
      if (!process) return { ok: true, meta, image: undefined }
      const how = { recipe: this.settings.recipes[recipe], encoders: this.settings.encoders, key: this.keys[recipe] }
      const { processImage } = await import('./process.ts')
      const image = await processImage(bytes, meta, sha, how, stemOf(basename(path)), this.filesDir)
      const imageKey = this.imageKey(sha, recipe)
      this.index.images[imageKey] = image
      this.used.images.add(imageKey)
      this.present.add(imageKey)
      return { ok: true, meta, image }
    })
  }

  /** What the index has for these bytes, if processing is not needed (its files still on disk). */
  private async cached(sha: string, recipe: RecipeName, process: boolean): Promise<MediaResult | undefined> {
    const meta = this.index.meta[this.metaKey(sha)]
    if (!meta) return undefined
    if (!process) return { ok: true, meta, image: undefined }
    const key = this.imageKey(sha, recipe)
    const image = this.index.images[key]
    if (!image) return undefined
    if (!this.present.has(key)) {
      const all = await Promise.all(image.variants.map((v) => exists(this.filePath(v.name))))
      if (!all.every(Boolean)) return undefined
      this.present.add(key)
    }
    this.used.images.add(key)
    return { ok: true, meta, image }
  }

  /** The social card of an item, rendered once per input. */
  async card(slug: string, input: CardInput): Promise<Variant> {
    // Loaded with the first card: satori takes a fifth of a second to load, which `npm run check` never needs.
    const { CARD_VERSION, renderCard } = await import('./card.ts')
    const key = createHash('sha256')
      .update(JSON.stringify([CARD_VERSION, this.keys.all, input]))
      .digest('hex')
    const known = this.index.cards[key]
    if (known && (this.present.has(key) || (await exists(this.filePath(known.name))))) {
      this.present.add(key)
      this.used.cards.add(key)
      return known
    }
    return this.limit.run(async () => {
      const [png, { writeAtomically }] = await Promise.all([renderCard(input), import('./process.ts')])
      const name = `card-${stemOf(slug)}-${key.slice(0, 12)}.png`
      await writeAtomically(this.filePath(name), png)
      const card: Variant = {
        format: 'png',
        width: SOCIAL_CARD.width,
        height: SOCIAL_CARD.height,
        name,
        etag: etagOf(png),
        size: png.byteLength,
      }
      this.index.cards[key] = card
      this.used.cards.add(key)
      this.present.add(key)
      this.dirty = true
      return card
    })
  }

  /** The hash of the bytes last read at `path` (a source in use). */
  hashOf(path: string): string | undefined {
    return this.index.sources[path]?.[1]
  }

  /** The signature recorded for `path` when it was last read. */
  signatureOf(path: string): string | undefined {
    return this.absent.has(path) ? 'missing' : this.index.sources[path]?.[0]
  }

  /** Of `paths`, those whose stat differs from the one recorded when they were read. */
  async stale(paths: Iterable<string>): Promise<string[]> {
    const out: string[] = []
    for (const path of paths) if ((await signature(join(this.root, path))) !== this.signatureOf(path)) out.push(path)
    return out
  }

  /** Write the index, keeping what this run used. */
  async save(): Promise<void> {
    const unused =
      Object.keys(this.index.sources).length !== this.used.sources.size ||
      Object.keys(this.index.images).length !== this.used.images.size ||
      Object.keys(this.index.cards).length !== this.used.cards.size
    if (!this.dirty && !unused) return
    const kept: MediaIndex = { sources: {}, meta: {}, images: {}, cards: {} }
    for (const path of [...this.used.sources].sort()) {
      const entry = this.index.sources[path]
      if (!entry) continue
      kept.sources[path] = entry
      const metaKey = this.metaKey(entry[1])
      if (this.index.meta[metaKey]) kept.meta[metaKey] = this.index.meta[metaKey]!
    }
    for (const key of [...this.used.images].sort()) kept.images[key] = this.index.images[key]!
    for (const key of [...this.used.cards].sort()) kept.cards[key] = this.index.cards[key]!
    await mkdir(dirname(this.indexFile), { recursive: true })
    const tmp = `${this.indexFile}.${process.pid}.tmp`
    await writeFile(tmp, JSON.stringify(kept))
    await rename(tmp, this.indexFile)
    this.dirty = false
  }

  /** Delete the files no entry of the saved index names (after a build: the cache stays the size of the content). */
  async prune(): Promise<void> {
    const keep = new Set<string>()
    for (const key of this.used.images) for (const v of this.index.images[key]?.variants ?? []) keep.add(v.name)
    for (const key of this.used.cards) if (this.index.cards[key]) keep.add(this.index.cards[key]!.name)
    for (const name of await readdir(this.filesDir).catch(() => [] as string[]))
      if (!keep.has(name) && !name.endsWith('.tmp')) await rm(this.filePath(name), { force: true })
  }
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  )
}

/** "does not exist", with the nearest file name in its folder when there is one. */
async function missing(absolute: string): Promise<string> {
  const names = await readdir(dirname(absolute)).catch(() => [] as string[])
  const best = closest(basename(absolute), names, 3)
  return `does not exist${best ? ` (did you mean ${best}?)` : ''}`
}
