/**
 * One build as the gateway serves it, immutable: the manifest (the content
 * index), its files (from dist/ or the compiler's memory), and everything
 * the gateway works out from them once per build — the search index, the
 * change log. Those hang off the snapshot and go with it; nothing is kept in
 * a module-level cache keyed by it. What only caches (files, rendered answers
 * and the answers the fast path repeats) is in the store's byte-bounded
 * cache, keyed by the build's id (files/cache.ts).
 */
import type { CollectionName, ContentModel } from '../contract/model/model.ts'
import { etagOf } from '../contract/etag.ts'
import type { Manifest } from '../contract/manifest.ts'
import type { ContentRecord } from '../contract/records.ts'
import { ByteLru } from './files/byte-lru.ts'
import { cachedFile, type FileCache } from './files/cache.ts'
import { MemoryFiles, type FileSource, type StoredFile } from './files/source.ts'

/** Megabytes of files and rendered answers kept in memory unless FILE_CACHE_MB says otherwise. */
export const DEFAULT_FILE_CACHE_MB = 16

/** An answer rendered by the gateway, with the headers that go with its body (they never change for it). */
export interface RenderedFile extends StoredFile {
  headers?: Readonly<Record<string, string>>
}

/** What a memo of a snapshot holds; one key per kind of value (`new MemoKey<T>('search index')`). */
export class MemoKey<T> {
  declare private readonly value: T
  constructor(readonly name: string) {}
}

export class Snapshot {
  readonly source: FileSource
  /** Files read from disk, answers rendered and answers remembered, most recently used kept (shared by a store's snapshots). */
  readonly cache: FileCache
  private readonly memos = new Map<MemoKey<unknown>, unknown>()
  /** The snapshot this one follows, while something else keeps it (its memos can be brought up to date rather than made again). */
  private readonly previous: WeakRef<Snapshot> | undefined
  /** Each collection's records by slug, made when first asked for (an edit in dev makes a snapshot per save). */
  private readonly slugIndexes = new Map<CollectionName, ReadonlyMap<string, ContentRecord>>()

  /** `previous`: the snapshot this one follows; the lists an edit left alone keep their slug index. */
  constructor(
    readonly manifest: Manifest,
    files: FileSource | ReadonlyMap<string, StoredFile>,
    cache?: FileCache,
    previous?: Snapshot,
  ) {
    this.source = files instanceof Map ? new MemoryFiles(files) : (files as FileSource)
    this.cache = cache ?? new ByteLru(DEFAULT_FILE_CACHE_MB * 2 ** 20)
    this.previous = previous && new WeakRef(previous)
    if (previous)
      for (const [name, index] of previous.slugIndexes)
        if (previous.manifest.collections[name] === manifest.collections[name]) this.slugIndexes.set(name, index)
  }

  /** The content model of the build: its collections, their fields and scopes (the manifest's). */
  get model(): ContentModel {
    return this.manifest.model
  }

  /** A collection's records by slug. */
  bySlug(collection: CollectionName): ReadonlyMap<string, ContentRecord> {
    let index = this.slugIndexes.get(collection)
    if (!index) {
      index = new Map(this.summaries(collection).map((r) => [r.slug, r]))
      this.slugIndexes.set(collection, index)
    }
    return index
  }

  get id(): string {
    return this.manifest.build.id
  }

  /** A collection's records (none for a name the build has no collection of). */
  summaries(collection: CollectionName): readonly ContentRecord[] {
    return this.manifest.collections[collection] ?? []
  }

  /** Whether the build has a file at `path` (relative to dist/). */
  has(path: string): boolean {
    return this.source.etag(path) !== undefined
  }

  /**
   * The file at `path`: at once when its bytes are in memory, else a promise
   * of them (rejecting with an ArtifactError when dist/ no longer has them);
   * undefined when the build has no such file.
   */
  file(path: string): StoredFile | Promise<StoredFile> | undefined {
    if (!this.has(path)) return undefined
    return this.source.peek(path) ?? this.source.read(path)
  }

  /** The answer rendered for `key` in this build, if it is still in the cache. */
  peekRendered(key: string): RenderedFile | undefined {
    return cachedFile(this.cache, `render\0${this.id}\0${key}`)
  }

  /**
   * The answer rendered for `key` (a canonical href) in this build, rendered
   * once while it stays in the cache, with the headers of its body.
   */
  rendered(key: string, render: () => { body: string; headers?: Record<string, string> }): RenderedFile {
    const cacheKey = `render\0${this.id}\0${key}`
    const cached = cachedFile(this.cache, cacheKey)
    if (cached) return cached
    const answer = render()
    const body = Buffer.from(answer.body)
    const file: RenderedFile = answer.headers
      ? { body, etag: etagOf(body), headers: answer.headers }
      : { body, etag: etagOf(body) }
    this.cache.set(cacheKey, { file, size: body.byteLength + key.length })
    return file
  }

  /** A value worked out once for this build. */
  memo<T>(key: MemoKey<T>, compute: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T
    const value = compute()
    this.memos.set(key, value)
    return value
  }

  /** The value the snapshot this one follows worked out for `key`, if it did and is still in memory. */
  previousMemo<T>(key: MemoKey<T>): T | undefined {
    return this.previous?.deref()?.memos.get(key) as T | undefined
  }

  /** The same for a load that may fail: a failed one is forgotten, so the next call tries again. */
  load<T>(key: MemoKey<Promise<T>>, load: () => Promise<T>): Promise<T> {
    return this.memo(key, () => {
      const pending = load()
      pending.catch(() => this.memos.delete(key))
      return pending
    })
  }
}
