/**
 * A build's files read from dist/ when asked for, kept in a byte-bounded LRU
 * shared by every snapshot of the store (keyed by ETag: equal tags are equal
 * bytes, whatever the path or build). Each read is checked against the ETag
 * the manifest gives, so a dist/ changed under the served build is never
 * mixed into it: the read fails (the routes answer 503) and the store is told.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { etagOf } from '../../contract/etag.ts'
import type { FileSource, StoredFile } from './source.ts'
import { ArtifactError } from './errors.ts'
import { cachedFile, type FileCache } from './cache.ts'

export class DiskFiles implements FileSource {
  /** Reads in flight, so concurrent requests for one file read it once. */
  private readonly reading = new Map<string, Promise<StoredFile>>()

  constructor(
    private readonly distDir: string,
    /** ETag of every file by path: the manifest's `files` (all but the manifest itself)… */
    private readonly files: Readonly<Record<string, string>>,
    /** …and the manifest's. */
    private readonly manifest: { path: string; etag: string },
    private readonly cache: FileCache,
    /** Told when a file is gone or differs from the manifest. */
    private readonly onMismatch: (error: ArtifactError) => void,
  ) {}

  etag(path: string): string | undefined {
    // Own keys only: a path such as "constructor" must not find Object's.
    if (Object.hasOwn(this.files, path)) return this.files[path]
    return path === this.manifest.path ? this.manifest.etag : undefined
  }

  peek(path: string): StoredFile | undefined {
    const etag = this.etag(path)
    return etag === undefined ? undefined : cachedFile(this.cache, etag)
  }

  read(path: string): Promise<StoredFile> {
    const cached = this.peek(path)
    if (cached) return Promise.resolve(cached)
    let pending = this.reading.get(path)
    if (!pending) {
      pending = this.load(path).finally(() => this.reading.delete(path))
      this.reading.set(path, pending)
    }
    return pending
  }

  private async load(path: string): Promise<StoredFile> {
    const etag = this.etag(path)
    if (etag === undefined) throw new ArtifactError(`dist/${path} is not a file of this build`)
    const body = await readFile(join(this.distDir, path)).catch(() => undefined)
    if (!body || etagOf(body) !== etag) {
      const error = new ArtifactError(
        `dist/${path} is missing or no longer matches the build being served (dist/ was rebuilt or changed); reload the gateway (SIGHUP) to serve the new build`,
      )
      this.onMismatch(error)
      throw error
    }
    const file = { body, etag }
    this.cache.set(etag, { file, size: body.byteLength })
    return file
  }
}
