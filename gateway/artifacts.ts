/**
 * The built artifacts the gateway serves, one immutable snapshot per build.
 * A new build is swapped in whole, so every answer comes from exactly one
 * build. What stays resident is the manifest (the content index) and a
 * byte-bounded cache of files and rendered answers; the files themselves are
 * read from dist/ when asked for and checked against the manifest's ETags
 * (files/disk-files.ts), or come from the compiler's memory in the dev server.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { COLLECTION_NAMES, type CollectionName } from '../contract/collections.ts'
import { etagOf } from '../contract/etag.ts'
import { MANIFEST_FILE } from '../contract/paths.ts'
import { MANIFEST_FORMAT, type Manifest } from '../contract/manifest.ts'
import type { ContentRecord } from '../contract/records.ts'
import { ByteLru } from './files/byte-lru.ts'
import { DiskFiles, type CachedFile } from './files/disk-files.ts'
import { ArtifactError } from './files/errors.ts'
import { MemoryFiles, type FileSource, type StoredFile } from './files/source.ts'
import { verifyFiles } from './files/verify.ts'

export { ArtifactError }
export type { FileSource, StoredFile }

/** Megabytes of files and rendered answers kept in memory unless FILE_CACHE_MB says otherwise. */
export const DEFAULT_FILE_CACHE_MB = 16

/**
 * When a build's files are checked against the manifest's ETags: all of them
 * when it is loaded (a dist/ that a rebuild may swap or change: `npm start`,
 * the dev server), or each one when first read, which every read does anyway
 * (a deploy's files, immutable: the Netlify Function, whose every new
 * instance would otherwise read and hash the whole build before answering).
 */
export type FileCheck = 'at-load' | 'on-read'

export class Snapshot {
  readonly bySlug: Record<CollectionName, ReadonlyMap<string, ContentRecord>>
  readonly source: FileSource
  /** Files read from disk and answers rendered by the gateway, most recently used kept (shared by a store's snapshots). */
  readonly cache: ByteLru<CachedFile>

  constructor(
    readonly manifest: Manifest,
    files: FileSource | ReadonlyMap<string, StoredFile>,
    cache?: ByteLru<CachedFile>,
  ) {
    this.source = files instanceof Map ? new MemoryFiles(files) : (files as FileSource)
    this.cache = cache ?? new ByteLru(DEFAULT_FILE_CACHE_MB * 2 ** 20)
    const bySlug = {} as Record<CollectionName, ReadonlyMap<string, ContentRecord>>
    for (const name of COLLECTION_NAMES) bySlug[name] = slugIndex(manifest.collections[name])
    this.bySlug = bySlug
  }

  get id(): string {
    return this.manifest.build.id
  }

  summaries(collection: CollectionName): readonly ContentRecord[] {
    return this.manifest.collections[collection]
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
  peekRendered(key: string): StoredFile | undefined {
    return this.cache.get(`render\0${this.id}\0${key}`)?.file
  }

  /** The answer rendered for `key` (a canonical href) in this build, rendered once while it stays in the cache. */
  rendered(key: string, render: () => string): StoredFile {
    const cacheKey = `render\0${this.id}\0${key}`
    const cached = this.cache.get(cacheKey)
    if (cached) return cached.file
    const body = Buffer.from(render())
    const file = { body, etag: etagOf(body) }
    this.cache.set(cacheKey, { file, size: body.byteLength + key.length })
    return file
  }
}

/** Each list's records by slug; the dev server's snapshots share the lists an edit left alone, and so their index. */
const slugIndexes = new WeakMap<readonly ContentRecord[], ReadonlyMap<string, ContentRecord>>()

function slugIndex(records: readonly ContentRecord[]): ReadonlyMap<string, ContentRecord> {
  let index = slugIndexes.get(records)
  if (!index) slugIndexes.set(records, (index = new Map(records.map((r) => [r.slug, r]))))
  return index
}

/**
 * Load the build in `distDir`: the manifest, then every file checked against
 * its ETag (read, hashed and dropped, but what fits in the cache), so a
 * dist/ swapped mid-read or corrupted fails loudly instead of mixing builds.
 * With `checkFiles: 'on-read'` the files are left to the check each read makes
 * (DiskFiles), for a dist/ that cannot change under the process.
 */
export async function loadSnapshot(
  distDir: string,
  cache: ByteLru<CachedFile> = new ByteLru(DEFAULT_FILE_CACHE_MB * 2 ** 20),
  onMismatch: (error: ArtifactError) => void = () => undefined,
  checkFiles: FileCheck = 'at-load',
): Promise<Snapshot> {
  // Read as text only (not bytes and text): at 10,000 items the manifest is 10 MB, read once per load.
  let manifestText: string
  try {
    manifestText = await readFile(join(distDir, MANIFEST_FILE), 'utf8')
  } catch {
    throw new ArtifactError(`no build found at ${join(distDir, MANIFEST_FILE)}; run \`npm run build\` first`)
  }
  let manifest: Manifest
  try {
    manifest = JSON.parse(manifestText) as Manifest
    if (manifest.format !== MANIFEST_FORMAT || !manifest.build?.id || !manifest.files || !manifest.collections)
      throw new Error('shape')
    for (const name of COLLECTION_NAMES) if (!Array.isArray(manifest.collections[name])) throw new Error('shape')
  } catch {
    throw new ArtifactError(
      `the manifest ${join(distDir, MANIFEST_FILE)} is unreadable or of an unknown format; rebuild`,
    )
  }
  if (checkFiles === 'at-load') await verifyFiles(distDir, manifest.files, cache)
  // The text is the file's UTF-8 bytes decoded: hashing it re-encodes the same bytes.
  const manifestFile = { path: MANIFEST_FILE, etag: etagOf(manifestText) }
  return new Snapshot(manifest, new DiskFiles(distDir, manifest.files, manifestFile, cache, onMismatch), cache)
}

/**
 * Holds the current snapshot and swaps in new ones. Requests take the current
 * snapshot once at their start and use only it.
 */
export class ArtifactStore {
  private snapshot: Snapshot | undefined
  private failure: Error | undefined
  /** Files and rendered answers of every snapshot this store loads, within FILE_CACHE_MB. */
  readonly cache: ByteLru<CachedFile>

  private readonly checkFiles: FileCheck

  constructor(
    readonly distDir: string,
    options: { cacheMb?: number; checkFiles?: FileCheck } = {},
  ) {
    this.cache = new ByteLru((options.cacheMb ?? DEFAULT_FILE_CACHE_MB) * 2 ** 20)
    this.checkFiles = options.checkFiles ?? 'at-load'
  }

  /** Load (or reload) dist/; on failure keeps serving the previous snapshot, if any. */
  async reload(): Promise<Snapshot> {
    try {
      let loaded: Snapshot | undefined
      // A file of the served build found changed on disk: health says so until the next good load.
      const next = await loadSnapshot(
        this.distDir,
        this.cache,
        (error) => {
          if (this.snapshot === loaded) this.failure = error
        },
        this.checkFiles,
      )
      loaded = next
      this.swap(next)
      return next
    } catch (error) {
      this.failure = error as Error
      throw error
    }
  }

  swap(next: Snapshot): void {
    this.snapshot = next
    this.failure = undefined
  }

  /** The snapshot to answer from, or undefined when no build could be loaded. */
  current(): Snapshot | undefined {
    return this.snapshot
  }

  /** Why the last load failed (or a served file went missing), for health and logs. */
  lastError(): Error | undefined {
    return this.failure
  }
}
