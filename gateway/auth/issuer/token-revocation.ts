/**
 * Revocation of the embedded issuer's JWT access tokens, which nobody
 * stores: a token is good from its signature alone, so the gateway checks,
 * at every use, that it has not been taken back since. Three ways a token
 * is taken back:
 *
 * - itself, at /oauth/revoke (RFC 7009): its `jti` is denied until the token
 *   expires;
 * - its grant, when the provider revokes one (a refresh token revoked, a
 *   refresh token or authorization code used twice, RFC 6749 §4.1.2): the
 *   grant is denied for as long as a token issued before may live, and the
 *   token names its grant in the `grant_id` claim;
 * - its client, revoked by an operator (`keys client revoke`) or a
 *   registration that expired: a token whose client is no longer there is
 *   refused, so nothing need list the tokens a client holds.
 *
 * Every entry of the deny list carries a TTL of the longest remaining life
 * of the tokens it refuses (plus the clock tolerance), so the list never
 * holds more than the revocations of one token lifetime. Each check reads
 * the state store, which every gateway shares: a revocation holds at the
 * next request, on every instance.
 */
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose'
import type { StateStore } from '../store/state-store.ts'
import type { SigningKey } from './signing-key.ts'

/** The claim naming the grant an access token was issued from (provider.ts's extraTokenClaims). */
export const GRANT_CLAIM = 'grant_id'

const tokenKey = (jti: string) => `revoked/token/${encodeURIComponent(jti)}`
const grantKey = (grantId: string) => `revoked/grant/${encodeURIComponent(grantId)}`

export interface TokenRevocationOptions {
  store: StateStore
  key: SigningKey
  issuer: () => string
  /** The longest an access token lives, in seconds (OAUTH_TOKEN_TTL). */
  accessTokenTtl: number
  /** Seconds past `exp` the gateway still accepts a token (the verifier's clock tolerance). */
  clockTolerance: number
  /** Whether the client a token was issued to may still use it. */
  clientActive(clientId: string): Promise<boolean>
}

export interface TokenRevocations {
  /** Deny the token with this `jti` until it expires (`exp`, epoch seconds). */
  revokeToken(jti: string, exp: number): Promise<void>
  /** Deny every token of `grantId` issued until now. */
  revokeGrant(grantId: string): Promise<void>
  /** Why a verified token is no longer good, or undefined while it is. */
  check(claims: JWTPayload): Promise<string | undefined>
  /**
   * /oauth/revoke with a JWT, for `clientId` (authenticated by the provider): revokes it when it is this
   * issuer's and the client's; 'not-yours' when it is another client's.
   */
  revokePresented(token: string, clientId: string): Promise<'revoked' | 'not-ours' | 'not-yours'>
}

export function tokenRevocations(options: TokenRevocationOptions): TokenRevocations {
  const { store } = options
  // The clock of the tokens' own iat and exp (oidc-provider's, the system's), not the platform's.
  const seconds = () => Math.floor(Date.now() / 1000)
  const keys = createLocalJWKSet({ keys: [options.key.publicJwk] })

  const revokeToken = async (jti: string, exp: number) => {
    const ttl = exp - seconds() + options.clockTolerance
    if (ttl > 0) await store.set(tokenKey(jti), { at: seconds() }, ttl)
  }

  return {
    revokeToken,
    async revokeGrant(grantId) {
      // Tokens issued later (a person authorizing the same client again) stay good: only those issued by now.
      await store.set(grantKey(grantId), { at: seconds() }, options.accessTokenTtl + options.clockTolerance)
    },
    async check(claims) {
      const { jti, iat, client_id: clientId } = claims
      const grantId = claims[GRANT_CLAIM]
      const [token, grant, active] = await Promise.all([
        typeof jti === 'string' ? store.get(tokenKey(jti)) : undefined,
        typeof grantId === 'string' ? store.get<{ at: number }>(grantKey(grantId)) : undefined,
        typeof clientId === 'string' ? options.clientActive(clientId) : true,
      ])
      if (token !== undefined) return 'The token has been revoked.'
      if (grant && (typeof iat !== 'number' || iat <= grant.at))
        return 'The token has been revoked: its grant was revoked.'
      if (!active) return 'The token has been revoked: its client is no longer registered or was revoked.'
      return undefined
    },
    async revokePresented(token, clientId) {
      let claims: JWTPayload
      try {
        // Expired or not this issuer's: nothing to revoke (RFC 7009 §2.2 answers 200 all the same).
        ;({ payload: claims } = await jwtVerify(token, keys, {
          issuer: options.issuer(),
          algorithms: [options.key.alg],
        }))
      } catch {
        return 'not-ours'
      }
      if (claims.client_id !== clientId) return 'not-yours'
      if (typeof claims.jti !== 'string' || typeof claims.exp !== 'number') return 'not-ours'
      await revokeToken(claims.jti, claims.exp)
      return 'revoked'
    },
  }
}
