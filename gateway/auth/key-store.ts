/**
 * Look up API keys by SHA-256 hash at request time: the built-in sandbox key
 * and the keys of the runtime data (followed, so `npm run keys -- revoke`
 * reaches a running gateway).
 */
import { timingSafeEqual } from 'node:crypto'
import type { Logger } from '../log.ts'
import { hashApiKey } from './api-key.ts'
import type { KeyEntry, KeysFile } from './keys-file.ts'
import type { DataDocument } from './runtime-data.ts'
import { SANDBOX_KEY_ENTRY } from './sandbox.ts'

export type KeyLookup = { ok: true; key: KeyEntry } | { ok: false; reason: 'unknown' | 'revoked' | 'expired' }

export interface KeyStore {
  lookup(key: string, now?: Date): Promise<KeyLookup>
}

export async function openKeyStore(document: DataDocument<KeysFile>, log?: Logger): Promise<KeyStore> {
  const file = await document.follow(log)
  return {
    async lookup(key, now = new Date()) {
      const keys = [SANDBOX_KEY_ENTRY, ...(await file.get()).keys]
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
