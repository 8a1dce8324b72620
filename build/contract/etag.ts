/** Strong ETags from the body's hash: equal bytes, equal tag, on the CDN and the gateway alike. */
import { createHash } from 'node:crypto'

export function etagOf(body: string | Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`
}
