/**
 * Signing secrets of webhook subscriptions. Unlike an API key, whose hash is
 * enough to check it, a signing secret must be kept whole so the sender can
 * sign with it; so it is stored encrypted (AES-256-GCM, the subscription's id
 * as associated data, so a ciphertext cannot be moved to another
 * subscription) under WEBHOOK_SECRETS_KEY, a key that lives in the
 * environment or in gateway/.keys/ (git-ignored, mode 0600), never beside the
 * ciphertexts in the state store. Whoever reads the store alone learns no
 * secret; the plain secret is shown once, when it is made.
 *
 * @example const key = await loadSecretsKey({ file: 'gateway/.keys/webhook-secrets.key' }); seal(key, 'wh_…', generateSigningSecret())
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { WEBHOOK_SECRET_PREFIX } from '../../contract/webhook-events.ts'
import { createDurably } from '../auth/store/durable-file.ts'
import { WebhookError } from './errors.ts'

export const DEFAULT_SECRETS_KEY_FILE = 'gateway/.keys/webhook-secrets.key'

/** A signing secret as stored: sealed with the secrets key. */
export interface SealedSecret {
  /** Which secrets key sealed it (a fingerprint, not the key). */
  kid: string
  iv: string
  ciphertext: string
  tag: string
}

export interface SecretsKey {
  kid: string
  key: Buffer
}

/** A new `whsec_` secret: 32 random bytes, base64, as every Standard Webhooks library reads it. */
export function generateSigningSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`
}

/** A new WEBHOOK_SECRETS_KEY value. */
export function generateSecretsKey(): string {
  return randomBytes(32).toString('base64url')
}

export interface SecretsKeySource {
  /** WEBHOOK_SECRETS_KEY; wins over the file. */
  value?: string | undefined
  /** Where a generated key is kept; undefined where none may be generated (Netlify Blobs: every instance needs the same). */
  file?: string | undefined
}

export async function loadSecretsKey(source: SecretsKeySource): Promise<SecretsKey> {
  if (source.value) return keyOf(source.value)
  if (!source.file)
    throw new WebhookError(
      'WEBHOOK_SECRETS_KEY must be set where webhook subscriptions live in Netlify Blobs (the functions and the keys CLI need the same one); `npm run keys -- webhook secrets-key` prints one',
      'WEBHOOK_CONFIG',
    )
  try {
    return keyOf((await readFile(source.file, 'utf8')).trim())
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const value = generateSecretsKey()
  // Another process made it first: use that one, so both read each other's secrets.
  if (!(await createDurably(source.file, `${value}\n`))) return keyOf((await readFile(source.file, 'utf8')).trim())
  return keyOf(value)
}

function keyOf(value: string): SecretsKey {
  const key = Buffer.from(value, 'base64url')
  if (key.length !== 32) throw new WebhookError('WEBHOOK_SECRETS_KEY must be 32 bytes in base64url', 'WEBHOOK_CONFIG')
  return { key, kid: createHash('sha256').update(key).digest('base64url').slice(0, 12) }
}

export function seal(key: SecretsKey, subscriptionId: string, secret: string): SealedSecret {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key.key, iv)
  cipher.setAAD(Buffer.from(subscriptionId))
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return {
    kid: key.kid,
    iv: iv.toString('base64url'),
    ciphertext: ciphertext.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
  }
}

export function unseal(key: SecretsKey, subscriptionId: string, sealed: SealedSecret): string {
  if (sealed.kid !== key.kid)
    throw new WebhookError(
      `the signing secrets of ${subscriptionId} were sealed with another WEBHOOK_SECRETS_KEY (${sealed.kid}, this one is ${key.kid}); set the key they were made with, or rotate the secret`,
      'WEBHOOK_CONFIG',
    )
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(sealed.iv, 'base64url'))
    decipher.setAAD(Buffer.from(subscriptionId))
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    )
  } catch {
    throw new WebhookError(`the signing secret of ${subscriptionId} does not decrypt: it was altered`, 'WEBHOOK_CONFIG')
  }
}
