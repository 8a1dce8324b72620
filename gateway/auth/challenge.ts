/**
 * `WWW-Authenticate: Bearer …` challenges (RFC 6750 §3) carrying the
 * RFC 9728 `resource_metadata` URL, so a client can discover where to get a
 * token from the 401 alone.
 */
export interface ChallengeOptions {
  resourceMetadata: string
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope'
  description?: string
  /** Scopes the resource needs (space-separated in the header). */
  scope?: readonly string[]
}

const MAX_DESCRIPTION = 300

/** A quoted-string (RFC 9110 §5.6.4); descriptions keep to printable ASCII minus `"` and `\`. */
function quote(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]|["\\]/g, '')}"`
}

export function bearerChallenge(options: ChallengeOptions): string {
  const params: string[] = [`resource_metadata=${quote(options.resourceMetadata)}`]
  if (options.error) params.push(`error=${quote(options.error)}`)
  // Cut: a verifier's message must not make the header long (openapi.json bounds it).
  if (options.description) params.push(`error_description=${quote(options.description.slice(0, MAX_DESCRIPTION))}`)
  if (options.scope?.length) params.push(`scope=${quote(options.scope.join(' '))}`)
  return `Bearer ${params.join(', ')}`
}
