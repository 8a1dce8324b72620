/**
 * API key format: `tw_live_` or `tw_sandbox_`, 30 random base62 characters,
 * then 6 base62 characters of the CRC32 of everything before them — the
 * GitHub token shape, so secret scanners can match the prefix and reject
 * look-alikes by the checksum without asking us. Keys are stored only as
 * SHA-256 hashes; 178 random bits make a slow hash unnecessary.
 */
import { createHash, randomInt } from 'node:crypto'
import { crc32 } from 'node:zlib'

export const KEY_PREFIXES = { live: 'tw_live_', sandbox: 'tw_sandbox_' } as const
export type KeyKind = keyof typeof KEY_PREFIXES

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const RANDOM_LENGTH = 30
const CHECKSUM_LENGTH = 6
/** The whole key; also what a secret scanner would use. */
export const API_KEY_PATTERN = /^tw_(live|sandbox)_[0-9A-Za-z]{36}$/

/** True when the token claims to be an API key: decided by prefix alone, before any JWT parsing. */
export function hasKeyPrefix(token: string): boolean {
  return token.startsWith(KEY_PREFIXES.live) || token.startsWith(KEY_PREFIXES.sandbox)
}

/**
 * What failed API keys are counted by besides the address (failed-auth.ts):
 * the prefix and the first 8 random characters, enough to tell keys apart
 * and far too little to guess one from.
 */
export function apiKeyIdentifier(token: string): string {
  const prefix = token.startsWith(KEY_PREFIXES.sandbox) ? KEY_PREFIXES.sandbox : KEY_PREFIXES.live
  return token.slice(0, prefix.length + 8)
}

export function generateApiKey(kind: KeyKind): string {
  let random = ''
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)]
  const body = KEY_PREFIXES[kind] + random
  return body + checksumOf(body)
}

/** Shape and checksum; says nothing about whether the key exists. */
export function isWellFormedApiKey(token: string): boolean {
  if (!API_KEY_PATTERN.test(token)) return false
  const body = token.slice(0, -CHECKSUM_LENGTH)
  return token.slice(-CHECKSUM_LENGTH) === checksumOf(body)
}

/** The stored form of a key: `sha256:<hex>`. */
export function hashApiKey(key: string): string {
  return `sha256:${createHash('sha256').update(key, 'utf8').digest('hex')}`
}

function checksumOf(body: string): string {
  let n = crc32(Buffer.from(body, 'utf8'))
  let out = ''
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62] + out
    n = Math.floor(n / 62)
  }
  return out
}
