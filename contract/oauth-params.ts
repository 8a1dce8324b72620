/**
 * The longest value of each parameter the embedded authorization server's
 * endpoints take (query or form), stated in the OpenAPI document and checked
 * by the gateway before the provider sees the request: a longer one is an
 * `invalid_request`. Generous for every real value (codes and refresh tokens
 * are 43 characters, a PKCE verifier at most 128), small enough that nobody
 * stores or echoes megabytes.
 */
/** Longest bearer token the gateway reads (an API key or a JWT access token); longer is malformed. */
export const MAX_TOKEN_LENGTH = 8192
/**
 * The longest `scope` of a token answer the document states: every scope of the first
 * release's model at once (the fixed ones and four collections'). A model with more
 * collections can grant more; raising a bound of an answer is a major version
 * (docs/api-lifecycle.md), so it is raised with the next one.
 */
export const MAX_SCOPE_LENGTH = 132
/** Longest error_description the gateway passes on from the provider (longer ones are cut). */
export const MAX_ERROR_DESCRIPTION_LENGTH = 500

export const OAUTH_PARAMETER_LIMITS = {
  grant_type: 100,
  response_type: 100,
  /** A registered id, or the https URL of a Client ID Metadata Document. */
  client_id: 2000,
  client_secret: 200,
  /** Requested scopes: room for unknown ones, which the provider refuses by name. */
  scope: 1000,
  resource: 2000,
  redirect_uri: 2000,
  code: 200,
  code_verifier: 128,
  code_challenge: 128,
  code_challenge_method: 10,
  refresh_token: 200,
  state: 1000,
  nonce: 1000,
  token: MAX_TOKEN_LENGTH,
  token_type_hint: 50,
} as const

export type OAuthParameter = keyof typeof OAUTH_PARAMETER_LIMITS

/** The first parameter of `params` over its limit, with the limit, or undefined when all keep to them. */
export function oversizedParameter(params: URLSearchParams): { name: OAuthParameter; limit: number } | undefined {
  for (const [name, value] of params) {
    const limit = (OAUTH_PARAMETER_LIMITS as Record<string, number>)[name]
    if (limit !== undefined && value.length > limit) return { name: name as OAuthParameter, limit }
  }
  return undefined
}

/** Most redirect URIs a self-registered client may have. */
export const MAX_REDIRECT_URIS = 10

/** Bounds of registration metadata (RFC 7591) beyond the policy's own (gateway/auth/issuer/client-policy.ts). */
export const CLIENT_METADATA_LIMITS = { client_name: 200, scope: 1000, redirect_uri: 2000, software: 200 } as const
