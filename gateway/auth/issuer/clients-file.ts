/**
 * Machine clients of the embedded authorization server (client_credentials):
 * JSON with each client's id, the SHA-256 hash of its secret, the scopes it
 * may ask for, a label and an optional revocation time. Secrets are
 * generated (never chosen), so a fast hash is enough; they are compared in
 * constant time (see client-secrets.ts).
 */
import { createHash, randomInt } from 'node:crypto'
import { z } from 'zod'
import { AuthConfigError } from '../errors.ts'
import { writeJsonFile, type JsonFileKind } from '../json-file.ts'
import { isScope, type Scope } from '../../../contract/scopes.ts'
import { dataDocument, type DataDocument, type DataLocation } from '../runtime-data.ts'
import type { StateStore } from '../store/state-store.ts'

export const CLIENT_SECRET_PREFIX = 'tw_cs_'

const Client = z.strictObject({
  client_id: z.string().regex(/^[A-Za-z0-9._-]{3,64}$/),
  secret_hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  // A fixed scope or a collection's (`content.<name>.read`), whether the build has that collection or not.
  scopes: z.array(z.string().refine((s): s is Scope => isScope(s), 'unknown scope')).min(1),
  label: z.string().min(1).max(200),
  created_at: z.iso.datetime({ offset: true }),
  revoked_at: z.iso.datetime({ offset: true }).nullable().optional(),
})
const ClientsFile = z.strictObject({ version: z.literal(1), clients: z.array(Client) })

export type Client = z.infer<typeof Client>
export type ClientsFile = z.infer<typeof ClientsFile>

const KIND: JsonFileKind = { label: 'clients file', error: (message) => new AuthConfigError(message) }

function checkIds(file: ClientsFile, location: string): ClientsFile {
  const ids = new Set(file.clients.map((c) => c.client_id))
  if (ids.size !== file.clients.length) throw new AuthConfigError(`clients file ${location}: duplicate client_id`)
  return file
}

/** The machine clients where runtime data lives (gateway/auth/runtime-data.ts): a file, or the state store. */
export function clientsDocument(where: DataLocation, store: () => StateStore): DataDocument<ClientsFile> {
  return dataDocument(where, store, 'credentials/clients', ClientsFile, KIND, { version: 1, clients: [] }, checkIds)
}

export function writeClientsFile(path: string, file: ClientsFile): Promise<void> {
  return writeJsonFile(path, ClientsFile, file)
}

export function generateClientSecret(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
  let out = CLIENT_SECRET_PREFIX
  for (let i = 0; i < 40; i++) out += alphabet[randomInt(62)]
  return out
}

export function hashClientSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex')}`
}
