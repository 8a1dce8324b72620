/** Mint RFC 9068 JWT access tokens with the built-in issuer's key. */
import { randomUUID } from 'node:crypto'
import { SignJWT } from 'jose'
import type { SigningKey } from './signing-key.ts'

export interface AccessTokenClaims {
  issuer: string
  clientId: string
  audience: string[]
  scopes: readonly string[]
  ttlSeconds: number
}

export async function mintAccessToken(key: SigningKey, claims: AccessTokenClaims, now = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000)
  return new SignJWT({ client_id: claims.clientId, scope: claims.scopes.join(' ') })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
    .setIssuer(claims.issuer)
    .setSubject(claims.clientId)
    .setAudience(claims.audience.length === 1 ? claims.audience[0]! : claims.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + claims.ttlSeconds)
    .setJti(randomUUID())
    .sign(key.privateKey)
}
