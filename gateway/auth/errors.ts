/** Why a credential was refused; the guard turns these into RFC 6750 answers. */

/** The credential is not acceptable: bad format, signature, claims, expired, revoked. → 401 invalid_token */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError'
  readonly code = 'INVALID_TOKEN'
}

/** The issuer's metadata or keys could not be fetched, so no verdict is possible. → 503 */
export class IssuerUnavailableError extends Error {
  override readonly name = 'IssuerUnavailableError'
  readonly code = 'ISSUER_UNAVAILABLE'
}

/** Authentication settings that cannot work; reported at start-up. */
export class AuthConfigError extends Error {
  override readonly name = 'AuthConfigError'
  readonly code = 'AUTH_CONFIG_INVALID'
}
