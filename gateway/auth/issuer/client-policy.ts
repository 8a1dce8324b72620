/**
 * Who may become a client without an operator: Dynamic Client Registration
 * (RFC 7591) and Client ID Metadata Documents are open to anyone, so both
 * are held to one policy — the authorization code flow only (never
 * client_credentials, which would hand out tokens without a person), and
 * redirect URIs that are https, or http on a loopback address for native and
 * local clients (RFC 8252 §7.3). Machine clients come from the clients file.
 */
import { errors, type ClientMetadata, type KoaContextWithOIDC } from 'oidc-provider'
import { CLIENT_METADATA_LIMITS, MAX_REDIRECT_URIS } from '../../../contract/oauth-params.ts'
import { registrationEnd, type ClientLifetime } from './client-lifetime.ts'

export { MAX_REDIRECT_URIS }
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token'])
const RESPONSE_TYPES = new Set(['code'])
const AUTH_METHODS = new Set(['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'])
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** RFC 7591 §2 fields the provider does not know; kept with the registration, and the hook our policy runs in. */
export const EXTRA_CLIENT_PROPERTIES = ['software_id', 'software_version'] as const

/** Why a self-registered client is refused, or undefined when it may register. */
export function registrationProblem(
  metadata: Partial<ClientMetadata>,
): { message: string; redirect?: true } | undefined {
  const grants = metadata.grant_types ?? ['authorization_code']
  const refusedGrant = grants.find((g) => !GRANT_TYPES.has(g))
  if (refusedGrant)
    return {
      message: `grant_types may only contain authorization_code and refresh_token (not ${refusedGrant}); machine clients are created by an operator`,
    }
  const refusedResponse = (metadata.response_types ?? ['code']).find((r) => !RESPONSE_TYPES.has(r))
  if (refusedResponse) return { message: `response_types may only contain code (not ${refusedResponse})` }
  const method = metadata.token_endpoint_auth_method ?? 'client_secret_basic'
  if (!AUTH_METHODS.has(method))
    return { message: `token_endpoint_auth_method must be one of ${[...AUTH_METHODS].join(', ')}` }
  for (const field of ['client_name', 'scope'] as const) {
    const value = metadata[field]
    if (typeof value === 'string' && value.length > CLIENT_METADATA_LIMITS[field])
      return { message: `${field} must be at most ${CLIENT_METADATA_LIMITS[field]} characters` }
  }
  const uris = metadata.redirect_uris ?? []
  if (uris.length === 0) return { message: 'redirect_uris must name at least one redirect URI', redirect: true }
  if (uris.length > MAX_REDIRECT_URIS)
    return { message: `redirect_uris may name at most ${MAX_REDIRECT_URIS} URIs`, redirect: true }
  for (const uri of uris) {
    if (uri.length > CLIENT_METADATA_LIMITS.redirect_uri)
      return {
        message: `a redirect URI must be at most ${CLIENT_METADATA_LIMITS.redirect_uri} characters`,
        redirect: true,
      }
    const problem = redirectUriProblem(uri)
    if (problem) return { message: problem, redirect: true }
  }
  return undefined
}

export function redirectUriProblem(uri: string): string | undefined {
  const url = URL.parse(uri)
  if (!url) return `redirect URI "${uri.slice(0, 200)}" is not a URL`
  if (url.protocol === 'https:') return undefined
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined
  return `redirect URI "${uri.slice(0, 200)}" must use https, or http on a loopback address (localhost, 127.0.0.1, [::1])`
}

/**
 * `extraClientMetadata.validator`: runs for every client the provider builds;
 * the policy applies when the client is being registered (only then does the
 * provider pass a request context), and a secret issued then is said to end
 * with the registration's grace period (client-lifetime.ts).
 */
export function clientMetadataValidator(lifetime: ClientLifetime) {
  return (ctx: KoaContextWithOIDC | undefined, key: string, value: unknown, metadata: ClientMetadata): void => {
    if (value !== undefined && (typeof value !== 'string' || value.length > CLIENT_METADATA_LIMITS.software)) {
      throw new errors.InvalidClientMetadata(
        `${key} must be a string of at most ${CLIENT_METADATA_LIMITS.software} characters`,
      )
    }
    if (key !== EXTRA_CLIENT_PROPERTIES[0] || ctx?.oidc?.route !== 'registration') return
    const problem = registrationProblem(metadata)
    if (problem)
      throw problem.redirect
        ? new errors.InvalidRedirectUri(problem.message)
        : new errors.InvalidClientMetadata(problem.message)
    // The provider sets 0 (never); the metadata object is the client being built, so this is what it answers and stores.
    if (metadata.client_secret) metadata.client_secret_expires_at = registrationEnd(lifetime)
  }
}

/** `clientIdMetadataDocument.allowClient`: the same policy for clients that publish their metadata at their client_id URL. */
export function allowMetadataDocumentClient(_ctx: KoaContextWithOIDC, client: { metadata(): ClientMetadata }): boolean {
  const problem = registrationProblem(client.metadata())
  if (problem) throw new errors.InvalidClientMetadata(`client_id metadata document refused: ${problem.message}`)
  return true
}
