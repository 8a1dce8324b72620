/**
 * The guard protected routes call. A bearer credential is an API key when it
 * has the key prefix (decided before any JWT parsing), else a JWT access
 * token. Answers follow RFC 6750 with RFC 9728 discovery:
 *
 * - no credential            → 401, `WWW-Authenticate: Bearer resource_metadata="…"`
 * - invalid, expired, revoked → 401, `error="invalid_token"`
 * - valid, scope missing      → 403, `error="insufficient_scope", scope="…"`
 * - issuer or JWKS unreachable → 503 (never a pass, never a 500)
 * - too many bad API keys from one address or for one key prefix → 429
 *   (failed-auth.ts: a valid key always passes, unless its address is over)
 *
 * Errors are thrown as problem+json HTTPErrors the app's error hook renders.
 */
import type { H3Event, HTTPError } from 'h3'
import type { Logger } from '../log.ts'
import { clientIp, type TrustProxy } from '../http/client-ip.ts'
import { problem, unavailable } from '../http/problem.ts'
import { apiKeyIdentifier, hasKeyPrefix, isWellFormedApiKey } from './api-key.ts'
import { parseBearer } from './bearer.ts'
import { bearerChallenge } from './challenge.ts'
import { InvalidTokenError, IssuerUnavailableError } from './errors.ts'
import type { FailureThrottle, Subject } from './failed-auth.ts'
import type { JwtVerifier, VerifiedToken } from './jwt.ts'
import type { KeyStore } from './key-store.ts'
import { resourceMetadataUrl, resourcePathOf } from './metadata.ts'
import { scopesOfRole, type Role, type Scope } from '../../contract/scopes.ts'

/** Who is calling, whichever credential they used. */
export interface Principal {
  kind: 'api-key' | 'oauth'
  /** The key's id, or the token's `sub`. */
  subject: string
  clientId?: string | undefined
  role?: Role
  scopes: readonly string[]
  expiresAt?: Date | undefined
}

export interface Guard {
  /** The caller, or null when the request has no bearer credential. Throws 401/503 for a bad one. */
  authenticate(input: H3Event | Request): Promise<Principal | null>
  /** The caller, if it holds every one of `scope`; else throws the 401/403/503 answer. */
  requireScope(input: H3Event | Request, scope: Scope | readonly Scope[]): Promise<Principal>
}

export interface GuardOptions {
  keys: KeyStore
  verifyJwt: () => JwtVerifier
  /**
   * After a token's signature and claims: why it was taken back since (the embedded issuer's deny list), or
   * undefined. Throws IssuerUnavailableError when that cannot be told: never a pass.
   */
  revoked?: (token: VerifiedToken) => Promise<string | undefined>
  publicUrl: () => string
  log: Logger
  /** Counts bad API keys; without it (unit tests of the guard) nothing is limited. */
  failures?: FailureThrottle
  trustProxy?: TrustProxy
}

export function createGuard(options: GuardOptions): Guard {
  const { log } = options

  function unauthorized(
    request: Request,
    detail: string,
    error?: 'invalid_token',
    scope?: readonly string[],
  ): HTTPError {
    const metadata = resourceMetadataUrl(options.publicUrl(), resourcePathOf(new URL(request.url).pathname))
    const challenge = bearerChallenge({
      resourceMetadata: metadata,
      error,
      description: error ? detail : undefined,
      scope,
    })
    return problem('unauthorized', { detail, headers: { 'www-authenticate': challenge } })
  }

  /** A bad API key: 401, or 429 once its address or prefix is past the failed-authentication limit. */
  async function badKey(request: Request, subject: Subject, detail: string, scope?: readonly string[]): Promise<never> {
    const verdict = await options.failures?.failed('api-key', subject)
    if (verdict && !verdict.ok) {
      log('warn', 'api key failures throttled', { by: verdict.by })
      throw problem('rate-limited', { detail: verdict.detail, headers: verdict.headers })
    }
    throw unauthorized(request, detail, 'invalid_token', scope)
  }

  async function identify(request: Request, address: string, scope?: readonly string[]): Promise<Principal | null> {
    const credential = parseBearer(request.headers.get('authorization'))
    if (credential.kind === 'none') return null
    if (credential.kind === 'malformed') throw unauthorized(request, credential.reason, 'invalid_token', scope)
    const { token } = credential
    if (hasKeyPrefix(token)) {
      const subject = { address, identifier: apiKeyIdentifier(token) }
      // An address past its limit is refused before the key is looked at (no store access: failed-auth.ts).
      const verdict = await options.failures?.check('api-key', subject)
      if (verdict && !verdict.ok) throw problem('rate-limited', { detail: verdict.detail, headers: verdict.headers })
      if (!isWellFormedApiKey(token))
        return badKey(request, subject, 'The API key is malformed or its checksum does not match.', scope)
      const found = await options.keys.lookup(token)
      if (!found.ok) {
        log('debug', 'api key refused', { reason: found.reason })
        return badKey(
          request,
          subject,
          found.reason === 'unknown' ? 'The API key is not known.' : `The API key is ${found.reason}.`,
          scope,
        )
      }
      const { key } = found
      return {
        kind: 'api-key',
        subject: key.id,
        role: key.role,
        scopes: scopesOfRole(key.role),
        expiresAt: key.expires_at ? new Date(key.expires_at) : undefined,
      }
    }
    try {
      const verified = await options.verifyJwt()(token)
      const revoked = await options.revoked?.(verified)
      if (revoked) throw new InvalidTokenError(revoked)
      return {
        kind: 'oauth',
        subject: verified.subject,
        clientId: verified.clientId,
        scopes: verified.scopes,
        expiresAt: verified.expiresAt,
      }
    } catch (error) {
      if (error instanceof InvalidTokenError) throw unauthorized(request, error.message, 'invalid_token', scope)
      if (error instanceof IssuerUnavailableError) {
        log('warn', 'token issuer unavailable', { error: error.message })
        throw unavailable('The token issuer cannot be reached, so the token cannot be checked; retry later.', 10)
      }
      throw error
    }
  }

  const addressOf = (input: H3Event | Request) =>
    'req' in input ? clientIp(input, options.trustProxy ?? 'none') : 'unknown'

  return {
    authenticate: (input) => identify(requestOf(input), addressOf(input)),
    async requireScope(input, scope) {
      const request = requestOf(input)
      const needed: readonly string[] = typeof scope === 'string' ? [scope] : scope
      const principal = await identify(request, addressOf(input), needed)
      if (!principal)
        throw unauthorized(
          request,
          `This operation needs a bearer credential with the scope ${needed.join(' ')}.`,
          undefined,
          needed,
        )
      const missing = needed.filter((s) => !principal.scopes.includes(s))
      if (missing.length) {
        const metadata = resourceMetadataUrl(options.publicUrl(), resourcePathOf(new URL(request.url).pathname))
        const detail = `The credential lacks the scope ${missing.join(' ')}.`
        const challenge = bearerChallenge({
          resourceMetadata: metadata,
          error: 'insufficient_scope',
          description: detail,
          scope: needed,
        })
        throw problem('forbidden', { detail, headers: { 'www-authenticate': challenge } })
      }
      return principal
    },
  }
}

function requestOf(input: H3Event | Request): Request {
  return 'req' in input ? input.req : input
}
