/**
 * The API keys file: JSON with one entry per key — its SHA-256 hash, role,
 * label and optional expiry or revocation time. Never the key itself.
 * Read by the gateway, written by the keys CLI (atomically, mode 0600).
 */
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { parseJsonFile, writeJsonFile, type JsonFileKind } from './json-file.ts'
import { ROLE_NAMES } from '../../contract/scopes.ts'
import { AppError } from '../../contract/errors.ts'
import { dataDocument, type DataDocument, type DataLocation } from './runtime-data.ts'
import type { StateStore } from './store/state-store.ts'

const isoDate = z.iso.datetime({ offset: true })
const KeyEntry = z.strictObject({
  id: z.string().regex(/^key_[A-Za-z0-9_]{4,40}$/),
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  role: z.enum(ROLE_NAMES as [(typeof ROLE_NAMES)[number], ...typeof ROLE_NAMES]),
  label: z.string().min(1).max(200),
  created_at: isoDate,
  expires_at: isoDate.nullable().optional(),
  revoked_at: isoDate.nullable().optional(),
})
const KeysFile = z.strictObject({ version: z.literal(1), keys: z.array(KeyEntry) })

export type KeyEntry = z.infer<typeof KeyEntry>
export type KeysFile = z.infer<typeof KeysFile>

export class KeysFileError extends AppError {
  readonly code = 'KEYS_FILE_INVALID'
}

const KIND: JsonFileKind = { label: 'keys file', error: (message) => new KeysFileError(message) }

export function parseKeysFile(text: string, path: string): KeysFile {
  return checkIds(parseJsonFile(text, path, KeysFile, KIND), path)
}

function checkIds(file: KeysFile, path: string): KeysFile {
  const ids = new Set<string>()
  for (const key of file.keys) {
    if (ids.has(key.id)) throw new KeysFileError(`keys file ${path}: duplicate id ${key.id}`)
    ids.add(key.id)
  }
  return file
}

export function writeKeysFile(path: string, file: KeysFile): Promise<void> {
  return writeJsonFile(path, KeysFile, file)
}

/** The API keys where runtime data lives (gateway/auth/runtime-data.ts): a file, or the state store. */
export function keysDocument(where: DataLocation, store: () => StateStore): DataDocument<KeysFile> {
  return dataDocument(where, store, 'credentials/api-keys', KeysFile, KIND, { version: 1, keys: [] }, checkIds)
}

export function newKeyId(): string {
  return `key_${randomBytes(6).toString('hex')}`
}
