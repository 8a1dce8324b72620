/**
 * The build id, kept by difference: a hash of every file's path and ETag,
 * in 256 buckets by path, each bucket hashed again only when one of its
 * files changed: an edit rehashes a few buckets instead of every file's
 * entry, so what it costs does not grow with the site.
 * The same files give the same id however they were set, so a watch-mode
 * build and a full build of the same content agree.
 */
import { createHash } from 'node:crypto'

const BUCKETS = 256

export class BuildDigest {
  private readonly buckets = Array.from({ length: BUCKETS }, () => new Map<string, string>())
  /** Each bucket's digest; undefined until it is hashed again. */
  private readonly digests: (Buffer | undefined)[] = new Array(BUCKETS)

  set(path: string, etag: string): void {
    const i = bucketOf(path)
    if (this.buckets[i]!.get(path) === etag) return
    this.buckets[i]!.set(path, etag)
    this.digests[i] = undefined
  }

  delete(path: string): void {
    const i = bucketOf(path)
    if (this.buckets[i]!.delete(path)) this.digests[i] = undefined
  }

  /** 16 hex digits naming the current set of files. */
  id(): string {
    const hash = createHash('sha256')
    for (let i = 0; i < BUCKETS; i++) hash.update((this.digests[i] ??= digestOf(this.buckets[i]!)))
    return hash.digest('hex').slice(0, 16)
  }
}

function digestOf(bucket: ReadonlyMap<string, string>): Buffer {
  let text = ''
  for (const path of [...bucket.keys()].sort()) text += `${path}\0${bucket.get(path)}\0`
  return createHash('sha256').update(text).digest()
}

/** FNV-1a of the path's UTF-16 code units, folded to a bucket. */
function bucketOf(path: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193)
  return (h >>> 0) % BUCKETS
}
