/**
 * The built artifacts the gateway serves, one immutable snapshot per build
 * (snapshot.ts). A new build is swapped in whole, so every answer comes from
 * exactly one build. What stays resident is the manifest (the content index)
 * and a byte-bounded cache of files and rendered answers; the files
 * themselves are read from dist/ when asked for and checked against the
 * manifest's ETags (files/disk-files.ts), or come from the compiler's memory
 * in the dev server.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { etagOf } from '../contract/etag.ts'
import { MANIFEST_FILE } from '../contract/paths.ts'
import { MANIFEST_FORMAT, type Manifest } from '../contract/manifest.ts'
import { ByteLru } from './files/byte-lru.ts'
import { DiskFiles } from './files/disk-files.ts'
import type { FileCache } from './files/cache.ts'
import { ArtifactError } from './files/errors.ts'
import { shareStrings } from './files/share-strings.ts'
import type { FileSource, StoredFile } from './files/source.ts'
import { verifyFiles } from './files/verify.ts'
import { DEFAULT_FILE_CACHE_MB, Snapshot } from './snapshot.ts'

export { ArtifactError, Snapshot }
export type { FileSource, StoredFile }

/**
 * When a build's files are checked against the manifest's ETags: all of them
 * when it is loaded (a dist/ that a rebuild may swap or change: `npm start`,
 * the dev server), or each one when first read, which every read does anyway
 * (a deploy's files, immutable: the Netlify Function, whose every new
 * instance would otherwise read and hash the whole build before answering).
 */
export type FileCheck = 'at-load' | 'on-read'

/**
 * Load the build in `distDir`: the manifest, then every file checked against
 * its ETag (read, hashed and dropped, but what fits in the cache), so a
 * dist/ swapped mid-read or corrupted fails loudly instead of mixing builds.
 * With `checkFiles: 'on-read'` the files are left to the check each read makes
 * (DiskFiles), for a dist/ that cannot change under the process.
 */
export async function loadSnapshot(
  distDir: string,
  cache: FileCache = new ByteLru(DEFAULT_FILE_CACHE_MB * 2 ** 20),
  onMismatch: (error: ArtifactError) => void = () => undefined,
  checkFiles: FileCheck = 'at-load',
): Promise<Snapshot> {
  // Read as text only (not bytes and text): the manifest grows with the site, read once per load.
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
    // The collections are the build's own model's (the gateway knows none of its own).
    if (!Array.isArray(manifest.model?.names)) throw new Error('shape')
    for (const name of manifest.model.names)
      if (!Array.isArray(manifest.collections[name]) || !manifest.model.collections[name]) throw new Error('shape')
  } catch {
    throw new ArtifactError(
      `the manifest ${join(distDir, MANIFEST_FILE)} is unreadable or of an unknown format; rebuild`,
    )
  }
  // Resident for as long as the build is served: its repeated values kept once.
  shareStrings(manifest.collections)
  if (checkFiles === 'at-load') await verifyFiles(distDir, manifest.files)
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
  private whyEmpty: (() => string | undefined) | undefined
  /** Files and rendered answers of every snapshot this store loads, within FILE_CACHE_MB. */
  readonly cache: FileCache

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

  /** Swap in a build held in memory (the compiler's output); it shares what it can with the current one. */
  swapFiles(manifest: Manifest, files: ReadonlyMap<string, StoredFile>): void {
    this.swap(new Snapshot(manifest, files, this.cache, this.snapshot))
  }

  /** The snapshot to answer from, or undefined when no build could be loaded. */
  current(): Snapshot | undefined {
    return this.snapshot
  }

  /**
   * Why the last load failed (or a served file went missing), for health and
   * logs; with nothing loaded, what `explainEmpty` says when it knows.
   */
  lastError(): Error | undefined {
    const why = this.snapshot ? undefined : this.whyEmpty?.()
    return why === undefined ? this.failure : new ArtifactError(why)
  }

  /**
   * Who knows why nothing is loaded yet (the dev server: content errors), for
   * health to say instead of a missing dist/.
   */
  explainEmpty(why: () => string | undefined): void {
    this.whyEmpty = why
  }
}
