/** Strong ETags from the body's hash: equal bytes, equal tag, on the CDN and the gateway alike. */
import { createHash } from 'node:crypto'
import type { BuildFile } from './manifest.ts'

export function etagOf(body: string | Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`
}

/** A file of the build from its text: the UTF-8 bytes and their ETag. */
export function buildFile(text: string): BuildFile {
  const body = Buffer.from(text)
  return { body, etag: etagOf(body) }
}
