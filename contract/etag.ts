/** Strong ETags from the body's hash: equal bytes, equal tag, on the CDN and the gateway alike. */
import { createHash, type Hash } from 'node:crypto'
import type { BuildFile } from './manifest.ts'

export function etagOf(body: string | Uint8Array): string {
  return etagFromDigest(createHash('sha256').update(body))
}

/** The ETag of bytes fed to a SHA-256 `hash` piece by piece (a large file read in chunks). */
export function etagFromDigest(hash: Hash): string {
  return `"${hash.digest('base64url').slice(0, 32)}"`
}

/** A file of the build from its text: the UTF-8 bytes and their ETag. */
export function buildFile(text: string): BuildFile {
  const body = Buffer.from(text)
  return { body, etag: etagOf(body) }
}
