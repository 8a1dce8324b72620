/**
 * Check every file of a build against the manifest's ETags before it is
 * served: a dist/ caught mid-swap or changed after the build fails to load
 * (the previous build stays served) instead of mixing two builds. Files are
 * hashed in chunks read into one reused buffer per reader, so checking a
 * large build (llms-full.txt grows with every item) costs no memory. Nothing
 * read here is kept: the cache fills with what requests ask for, not with
 * whatever the check happened to read first.
 * Processed images (/media/) are left to the check each read makes: their
 * names change with their bytes, and at thousands of images hashing them all
 * would hold up every start.
 */
import { createHash } from 'node:crypto'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { etagFromDigest } from '../../contract/etag.ts'
import { MEDIA_PREFIX } from '../../contract/public-paths.ts'
import { ArtifactError } from './errors.ts'

const CONCURRENT_READS = 8
const MEDIA_FOLDER = `${MEDIA_PREFIX.slice(1)}/`
const CHUNK = 256 * 1024

export async function verifyFiles(distDir: string, etags: Readonly<Record<string, string>>): Promise<void> {
  const paths = Object.keys(etags).filter((path) => !path.startsWith(MEDIA_FOLDER))
  let next = 0
  let failure: ArtifactError | undefined
  const worker = async () => {
    const buffer = Buffer.allocUnsafe(CHUNK)
    while (next < paths.length && !failure) {
      const path = paths[next++]!
      const etag = etags[path]!
      const read = await hashFile(join(distDir, path), buffer).catch(() => undefined)
      if (read !== etag) {
        failure = new ArtifactError(
          `dist/${path} is missing or does not match the manifest (a build changed dist/ while it was loaded?)`,
        )
        return
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENT_READS }, worker))
  if (failure) throw failure
}

/** The file's ETag, read through `buffer`. */
async function hashFile(path: string, buffer: Buffer): Promise<string> {
  const handle = await open(path, 'r')
  try {
    const hash = createHash('sha256')
    let total = 0
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, total)
      if (bytesRead === 0) break
      hash.update(buffer.subarray(0, bytesRead))
      total += bytesRead
    }
    return etagFromDigest(hash)
  } finally {
    await handle.close()
  }
}
