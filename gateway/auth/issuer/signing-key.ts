/**
 * The built-in issuer's ES256 signing key: from OAUTH_SIGNING_KEY (a private
 * JWK as JSON) when set, else gateway/.keys/oauth-signing-key.json, which is
 * generated on first run (git-ignored, mode 0600). Processes behind a load
 * balancer must share the key, so production sets the variable.
 */
import { hkdfSync } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose'
import type { Logger } from '../../log.ts'
import { AuthConfigError } from '../errors.ts'
import { createDurably } from '../store/durable-file.ts'

export const SIGNING_ALG = 'ES256'
export const DEFAULT_SIGNING_KEY_FILE = 'gateway/.keys/oauth-signing-key.json'

export interface SigningKey {
  kid: string
  alg: typeof SIGNING_ALG
  privateKey: CryptoKey
  /** The private key as a JWK, for the OpenID provider's key set; never logged, never served. */
  privateJwk: JWK
  /** The public half as published in the JWKS. */
  publicJwk: JWK
}

export interface SigningKeySource {
  /** Private JWK JSON from the environment; wins over the file. */
  jwk?: string | undefined
  file: string
}

export async function loadSigningKey(source: SigningKeySource, log?: Logger): Promise<SigningKey> {
  if (source.jwk) return fromJwk(parseJwk(source.jwk, 'OAUTH_SIGNING_KEY'))
  let text: string | undefined
  try {
    text = await readFile(source.file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new AuthConfigError(`cannot read signing key ${source.file}: ${(error as Error).message}`)
  }
  if (text !== undefined) return fromJwk(parseJwk(text, source.file))
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true })
  const jwk = await exportJWK(privateKey)
  try {
    // Another process won the race: use its key so both sign alike.
    if (!(await createDurably(source.file, `${JSON.stringify(jwk)}\n`)))
      return fromJwk(parseJwk(await readFile(source.file, 'utf8'), source.file))
    log?.('info', 'generated a new OAuth signing key', { file: source.file })
  } catch (error) {
    log?.('warn', 'could not store the generated OAuth signing key; tokens will not survive a restart', {
      error: (error as Error).message,
    })
  }
  return fromJwk(jwk)
}

function parseJwk(text: string, where: string): JWK {
  try {
    const jwk = JSON.parse(text) as JWK
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string')
      throw new Error('expected a private P-256 EC key (kty EC, crv P-256, d)')
    return jwk
  } catch (error) {
    throw new AuthConfigError(`${where} is not a usable signing key: ${(error as Error).message}`)
  }
}

async function fromJwk(jwk: JWK): Promise<SigningKey> {
  const { kty, crv, x, y } = jwk
  const publicPart = { kty: kty!, crv: crv!, x: x!, y: y! }
  const kid = await calculateJwkThumbprint(publicPart)
  const privateKey = (await importJWK({ ...jwk, alg: SIGNING_ALG }, SIGNING_ALG)) as CryptoKey
  const publicJwk = { ...publicPart, kid, alg: SIGNING_ALG, use: 'sig' }
  return { kid, alg: SIGNING_ALG, privateKey, privateJwk: { ...publicJwk, d: jwk.d! }, publicJwk }
}

/**
 * A secret for another purpose (cookie signatures, CSRF tokens) derived from
 * the signing key with HKDF: every process that shares the key shares it,
 * with no second secret to configure, and it reveals nothing about the key.
 */
export function deriveSecret(key: SigningKey, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(key.privateJwk.d!, 'base64url'), Buffer.alloc(0), `content-api ${purpose}`, 32),
  )
}
