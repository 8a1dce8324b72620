/** Why a credential was refused; the guard turns these into RFC 6750 answers. */
import { AppError } from '../../contract/errors.ts'

/** The credential is not acceptable: bad format, signature, claims, expired, revoked. → 401 invalid_token */
export class InvalidTokenError extends AppError {
  readonly code = 'INVALID_TOKEN'
}

/** The issuer's metadata or keys could not be fetched, so no verdict is possible. → 503 */
export class IssuerUnavailableError extends AppError {
  readonly code = 'ISSUER_UNAVAILABLE'
}

/** Authentication settings that cannot work; reported at start-up. */
export class AuthConfigError extends AppError {
  readonly code = 'AUTH_CONFIG_INVALID'
}
