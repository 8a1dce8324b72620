/**
 * Verify RFC 9068 JWT access tokens with jose: issuer, audience, an
 * asymmetric algorithm allow-list (never HS* or none), `typ` at+jwt or JWT,
 * expiry with a small clock tolerance, and no `iat` in the future beyond it
 * (jose checks `iat` only against a maximum age, which we do not set). Keys come from the issuer's JWKS
 * (remote, discovered from its metadata when not configured) or, for the
 * built-in issuer, from its own key set in memory.
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWSHeaderParameters,
  type JWTPayload,
  type FlattenedJWSInput,
  type JWTVerifyGetKey,
} from 'jose'
import { AuthConfigError, InvalidTokenError, IssuerUnavailableError } from './errors.ts'
import { scopesFromClaims } from '../../contract/scopes.ts'

/** Asymmetric JWS algorithms only: a symmetric one would let anyone holding the public key sign. */
export const ALLOWED_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
] as const
const ACCEPTED_TYP = new Set(['at+jwt', 'application/at+jwt', 'jwt'])

export interface JwtVerifierOptions {
  issuer: string
  /** Accepted `aud` values; a token must name at least one. */
  audience: readonly string[]
  algorithms?: readonly string[]
  /** Seconds of clock skew tolerated on exp/nbf/iat. */
  clockTolerance?: number
  /** A remote JWKS (its URL, possibly discovered lazily) or a local key set. */
  keys: { jwksUrl: () => Promise<string> } | { local: JSONWebKeySet }
}

export interface VerifiedToken {
  subject: string
  clientId: string | undefined
  scopes: string[]
  expiresAt: Date
  claims: JWTPayload
}

export type JwtVerifier = (token: string) => Promise<VerifiedToken>

export function createJwtVerifier(options: JwtVerifierOptions): JwtVerifier {
  const algorithms = [...(options.algorithms ?? ALLOWED_ALGORITHMS)]
  const refused = algorithms.filter((a) => !(ALLOWED_ALGORITHMS as readonly string[]).includes(a))
  if (refused.length)
    throw new AuthConfigError(`JWT algorithms not allowed: ${refused.join(', ')} (asymmetric algorithms only)`)
  const getKey = 'local' in options.keys ? createLocalJWKSet(options.keys.local) : remoteKeys(options.keys.jwksUrl)

  const clockTolerance = options.clockTolerance ?? 30
  return async (token) => {
    let payload: JWTPayload
    let typ: string | undefined
    try {
      const result = await jwtVerify(token, getKey, {
        issuer: options.issuer,
        audience: [...options.audience],
        algorithms,
        clockTolerance,
        requiredClaims: ['exp'],
      })
      payload = result.payload
      typ = result.protectedHeader.typ
    } catch (error) {
      if (error instanceof IssuerUnavailableError) throw error
      throw new InvalidTokenError(describe(error))
    }
    // Issued later than now: a clock far ahead at the issuer, or a token made to outlive its stated lifetime.
    if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + clockTolerance)
      throw new InvalidTokenError('The token\'s "iat" claim is in the future.')
    if (typ !== undefined && !ACCEPTED_TYP.has(typ.toLowerCase()))
      throw new InvalidTokenError(`The token type "${typ}" is not an access token.`)
    const clientId =
      typeof payload.client_id === 'string'
        ? payload.client_id
        : typeof payload.azp === 'string'
          ? payload.azp
          : undefined
    const subject = payload.sub ?? clientId
    if (!subject) throw new InvalidTokenError('The token names neither a subject nor a client.')
    return {
      subject,
      clientId,
      scopes: scopesFromClaims(payload),
      expiresAt: new Date(payload.exp! * 1000),
      claims: payload,
    }
  }
}

/**
 * A remote JWKS whose fetch failures become IssuerUnavailableError, while
 * "no key with this kid" stays a token problem (jose refetches once first).
 */
function remoteKeys(jwksUrl: () => Promise<string>): JWTVerifyGetKey {
  let remote: ReturnType<typeof createRemoteJWKSet> | undefined
  return async (header: JWSHeaderParameters, input: FlattenedJWSInput) => {
    try {
      remote ??= createRemoteJWKSet(new URL(await jwksUrl()), { timeoutDuration: 5_000, cooldownDuration: 30_000 })
      return await remote(header, input)
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error
      if (error instanceof IssuerUnavailableError) throw error
      throw new IssuerUnavailableError(`the issuer's JWKS could not be fetched: ${(error as Error).message}`)
    }
  }
}

/** A short, safe reason for error_description; never echoes the token. */
function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The token has expired.'
  if (error instanceof errors.JWTClaimValidationFailed) return `The token's "${error.claim}" claim is not acceptable.`
  if (error instanceof errors.JOSEAlgNotAllowed)
    return 'The token is signed with an algorithm this server does not accept.'
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'The token signature is invalid.'
  if (error instanceof errors.JWKSNoMatchingKey) return 'The token is signed with an unknown key.'
  if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) return 'The token is not a valid JWT.'
  return 'The token could not be verified.'
}
