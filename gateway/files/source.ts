/**
 * Where a snapshot's files come from. Two kinds: the compiler's output held
 * in memory (the dev server) and a dist/ folder on disk read on demand (npm
 * start, the Netlify function). Either way a path is only ever looked up by
 * its entry in the build's manifest, so no request can reach a file outside
 * the build.
 */
import { readFile } from 'node:fs/promises'
import { etagOf } from '../../contract/etag.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import { ArtifactError } from './errors.ts'

/** A file of the build: its bytes and strong ETag. */
export type StoredFile = BuildFile

export interface FileSource {
  /** The file's ETag in this build; undefined when the build has no such file. */
  etag(path: string): string | undefined
  /** The file if its bytes are in memory now (no I/O). */
  peek(path: string): StoredFile | undefined
  /** The file's bytes, checked against its ETag; rejects with an ArtifactError when the file is gone or differs. */
  read(path: string): Promise<StoredFile>
}

/**
 * The compiler's output, in memory but for the processed images, which stay
 * in the build's media cache on disk: those are read when asked for and
 * checked against their ETag, like dist/'s files.
 */
export class MemoryFiles implements FileSource {
  constructor(private readonly files: ReadonlyMap<string, StoredFile>) {}

  etag(path: string): string | undefined {
    return this.files.get(path)?.etag
  }

  peek(path: string): StoredFile | undefined {
    const file = this.files.get(path)
    return file?.file === undefined ? file : undefined
  }

  async read(path: string): Promise<StoredFile> {
    const file = this.files.get(path)
    if (!file) throw new Error(`no file ${path} in this build`)
    if (file.file === undefined) return file
    const body = await readFile(file.file).catch(() => undefined)
    if (!body || etagOf(body) !== file.etag)
      throw new ArtifactError(`the processed image ${path} is missing from the media cache or changed; save again`)
    return { body, etag: file.etag }
  }
}
