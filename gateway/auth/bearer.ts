/**
 * Read the credential from `Authorization: Bearer <token>` (RFC 6750 §2.1).
 * Only the header method is supported: tokens in query strings end up in
 * logs and caches.
 */
import { MAX_TOKEN_LENGTH } from '../../contract/oauth-params.ts'

export type BearerCredential =
  | { kind: 'none' }
  | { kind: 'malformed'; reason: string }
  | { kind: 'token'; token: string }

/** RFC 6750 b64token: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/
/** Larger than any key or JWT we accept (contract/oauth-params.ts); the server's header limit caps the rest. */
export { MAX_TOKEN_LENGTH }

export function parseBearer(header: string | null | undefined): BearerCredential {
  if (header === null || header === undefined || header.trim() === '') return { kind: 'none' }
  const match = /^([^\s]+)(?:\s+(.*))?$/.exec(header.trim())
  const scheme = match?.[1] ?? ''
  // Another scheme (Basic, DPoP, …) is no bearer credential at all.
  if (scheme.toLowerCase() !== 'bearer') return { kind: 'none' }
  const token = (match?.[2] ?? '').trim()
  if (token === '') return { kind: 'none' }
  if (token.length > MAX_TOKEN_LENGTH) return { kind: 'malformed', reason: 'The bearer token is too long.' }
  if (!B64TOKEN.test(token))
    return { kind: 'malformed', reason: 'The bearer token contains characters a token cannot have.' }
  return { kind: 'token', token }
}
