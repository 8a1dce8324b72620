/**
 * The API keys file: JSON with one entry per key — its SHA-256 hash, role,
 * label and optional expiry or revocation time. Never the key itself.
 * Read by the gateway, written by the keys CLI (atomically, mode 0600).
 */
import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import { z } from 'zod'
import { parseJsonFile, readJsonFile, writeJsonFile, type JsonFileKind } from './json-file.ts'
import { ROLE_NAMES } from '../../contract/scopes.ts'
import { AppError } from '../../contract/errors.ts'
import type { Settings } from '../../contract/settings.ts'

/** The committed file; it holds the public sandbox key's hash. */

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

export function keysFilePath(settings: Pick<Settings, 'KEYS_FILE'>, root = process.cwd()): string {
  return resolve(root, settings.KEYS_FILE)
}

const KIND: JsonFileKind = { label: 'keys file', error: (message) => new KeysFileError(message) }

/** Parse and validate; a missing file is an empty one. */
export function readKeysFile(path: string): Promise<KeysFile> {
  return readJsonFile(path, KeysFile, KIND, { version: 1, keys: [] }).then((file) => checkIds(file, path))
}

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

export function newKeyId(): string {
  return `key_${randomBytes(6).toString('hex')}`
}
