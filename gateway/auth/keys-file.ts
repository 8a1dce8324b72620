/**
 * The API keys file: JSON with one entry per key — its SHA-256 hash, role,
 * label and optional expiry or revocation time. Never the key itself.
 * Read by the gateway, written by the keys CLI (atomically, mode 0600).
 */
import { randomBytes } from 'node:crypto'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { z } from 'zod'
import { ROLE_NAMES } from './scopes.ts'

/** The committed file; it holds the public sandbox key's hash. */
export const DEFAULT_KEYS_FILE = 'gateway/auth/keys.json'

const isoDate = z.iso.datetime({ offset: true })
const KeyEntry = z.strictObject({
  id: z.string().regex(/^key_[A-Za-z0-9_]{4,40}$/),
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  role: z.enum(ROLE_NAMES as [typeof ROLE_NAMES[number], ...typeof ROLE_NAMES]),
  label: z.string().min(1).max(200),
  created_at: isoDate,
  expires_at: isoDate.nullable().optional(),
  revoked_at: isoDate.nullable().optional(),
})
const KeysFile = z.strictObject({ version: z.literal(1), keys: z.array(KeyEntry) })

export type KeyEntry = z.infer<typeof KeyEntry>
export type KeysFile = z.infer<typeof KeysFile>

export class KeysFileError extends Error {
  override readonly name = 'KeysFileError'
  readonly code = 'KEYS_FILE_INVALID'
}

export function keysFilePath(env: NodeJS.ProcessEnv, root = process.cwd()): string {
  return resolve(root, env.KEYS_FILE || DEFAULT_KEYS_FILE)
}

/** Parse and validate; a missing file is an empty one. */
export async function readKeysFile(path: string): Promise<KeysFile> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, keys: [] }
    throw new KeysFileError(`cannot read keys file ${path}: ${(error as Error).message}`)
  }
  return parseKeysFile(text, path)
}

export function parseKeysFile(text: string, path: string): KeysFile {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new KeysFileError(`keys file ${path} is not JSON: ${(error as Error).message}`)
  }
  const parsed = KeysFile.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new KeysFileError(`keys file ${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`)
  }
  const ids = new Set<string>()
  for (const key of parsed.data.keys) {
    if (ids.has(key.id)) throw new KeysFileError(`keys file ${path}: duplicate id ${key.id}`)
    ids.add(key.id)
  }
  return parsed.data
}

/** Write via a temporary file and rename, so a reader never sees half a file. */
export async function writeKeysFile(path: string, file: KeysFile): Promise<void> {
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temp, `${JSON.stringify(KeysFile.parse(file), null, 2)}\n`, { mode: 0o600 })
  await rename(temp, path)
}

export function newKeyId(): string {
  return `key_${randomBytes(6).toString('hex')}`
}
