/**
 * Check every file of a build against the manifest's ETags before it is
 * served: a dist/ caught mid-swap or changed after the build fails to load
 * (the previous build stays served) instead of mixing two builds. Files are
 * read a few at a time, hashed and dropped; the cache keeps what fits.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { etagOf } from '../../build/contract/etag.ts'
import type { ByteLru } from './byte-lru.ts'
import type { CachedFile } from './disk-files.ts'
import { ArtifactError } from './errors.ts'

const CONCURRENT_READS = 16

export async function verifyFiles(distDir: string, etags: ReadonlyMap<string, string>, cache: ByteLru<CachedFile>): Promise<void> {
  const queue = [...etags]
  let failure: ArtifactError | undefined
  const worker = async () => {
    for (let next = queue.pop(); next && !failure; next = queue.pop()) {
      const [path, etag] = next
      const body = await readFile(join(distDir, path)).catch(() => undefined)
      if (!body || etagOf(body) !== etag) {
        failure = new ArtifactError(`dist/${path} is missing or does not match the manifest (a build changed dist/ while it was loaded?)`)
        return
      }
      cache.set(etag, { file: { body, etag }, size: body.byteLength })
    }
  }
  await Promise.all(Array.from({ length: CONCURRENT_READS }, worker))
  if (failure) throw failure
}
