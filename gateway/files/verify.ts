/**
 * Check every file of a build against the manifest's ETags before it is
 * served: a dist/ caught mid-swap or changed after the build fails to load
 * (the previous build stays served) instead of mixing two builds. Files are
 * read a few at a time into reused buffers and hashed, so checking a large
 * build costs no memory; the cache keeps copies of the first files while
 * it has room.
 */
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { etagOf } from '../../build/contract/etag.ts'
import type { ByteLru } from './byte-lru.ts'
import type { CachedFile } from './disk-files.ts'
import { ArtifactError } from './errors.ts'

const CONCURRENT_READS = 8

export async function verifyFiles(distDir: string, etags: ReadonlyMap<string, string>, cache: ByteLru<CachedFile>): Promise<void> {
  const queue = [...etags]
  let failure: ArtifactError | undefined
  const worker = async () => {
    let buffer: Buffer = Buffer.allocUnsafe(256 * 1024)
    for (let next = queue.pop(); next && !failure; next = queue.pop()) {
      const [path, etag] = next
      const bytes = await readInto(join(distDir, path), buffer).catch(() => undefined)
      if (bytes) buffer = bytes.grown
      if (!bytes || etagOf(bytes.view) !== etag) {
        failure = new ArtifactError(`dist/${path} is missing or does not match the manifest (a build changed dist/ while it was loaded?)`)
        return
      }
      if (cache.totalBytes + bytes.view.byteLength <= cache.maxBytes) cache.set(etag, { file: { body: Buffer.from(bytes.view), etag }, size: bytes.view.byteLength })
    }
  }
  await Promise.all(Array.from({ length: CONCURRENT_READS }, worker))
  if (failure) throw failure
}

/** The file's bytes as a view into `buffer` (or into a larger one, `grown`, when it did not fit). */
async function readInto(path: string, buffer: Buffer): Promise<{ view: Buffer; grown: Buffer }> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    let target = buffer
    if (size > target.length) target = Buffer.allocUnsafe(Math.max(size, target.length * 2))
    let read = 0
    while (read < size) {
      const { bytesRead } = await handle.read(target, read, size - read, read)
      if (bytesRead === 0) break
      read += bytesRead
    }
    return { view: target.subarray(0, read), grown: target }
  } finally {
    await handle.close()
  }
}
