/**
 * Look up API keys by SHA-256 hash at request time, from the keys file
 * (followed on edit, so `npm run keys -- revoke` reaches a running gateway).
 */
import { timingSafeEqual } from 'node:crypto'
import type { Logger } from '../log.ts'
import { hashApiKey } from './api-key.ts'
import { cachedFile } from './file-cache.ts'
import { readKeysFile, type KeyEntry } from './keys-file.ts'

export type KeyLookup = { ok: true; key: KeyEntry } | { ok: false; reason: 'unknown' | 'revoked' | 'expired' }

export interface KeyStore {
  lookup(key: string, now?: Date): Promise<KeyLookup>
}

export async function openKeyStore(path: string, log?: Logger): Promise<KeyStore> {
  const file = await cachedFile(path, readKeysFile, log)
  return {
    async lookup(key, now = new Date()) {
      const { keys } = await file.get()
      const hash = Buffer.from(hashApiKey(key))
      // Constant time per entry and no early exit: timing says nothing about the hashes.
      let found: KeyEntry | undefined
      for (const entry of keys) {
        const stored = Buffer.from(entry.hash)
        if (stored.length === hash.length && timingSafeEqual(stored, hash)) found = entry
      }
      if (!found) return { ok: false, reason: 'unknown' }
      if (found.revoked_at && Date.parse(found.revoked_at) <= now.getTime()) return { ok: false, reason: 'revoked' }
      if (found.expires_at && Date.parse(found.expires_at) <= now.getTime()) return { ok: false, reason: 'expired' }
      return { ok: true, key: found }
    },
  }
}
