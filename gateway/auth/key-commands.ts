/**
 * `npm run keys -- create | list | revoke`: API keys. A new key is printed
 * once, on stdout; only its SHA-256 hash is stored. Each change is one step
 * of the keys document (`update`: none lost beside concurrent runs or
 * gateways), durable before "created" or "revoked" is printed, and then
 * recorded in the audit trail.
 */
import { ROLE_NAMES, isRole } from '../../contract/scopes.ts'
import { UsageError } from '../../contract/errors.ts'
import { generateApiKey, hashApiKey } from './api-key.ts'
import type { AuditTrail } from './audit/audit-trail.ts'
import { required, type CliIo } from './cli-io.ts'
import { parseExpiry } from './keys-expiry.ts'
import { newKeyId, type KeyEntry, type KeysFile } from './keys-file.ts'
import type { DataDocument } from './runtime-data.ts'
import { SANDBOX_KEY_ENTRY } from './sandbox.ts'

export const KEY_USAGE = {
  create: `usage: npm run keys -- create --role <${ROLE_NAMES.join('|')}> --label <text> [--expires <90d|2027-06-30|2027-06-30T12:00:00Z>] [--file <path>]`,
  list: 'usage: npm run keys -- list [--file <path>]',
  revoke: 'usage: npm run keys -- revoke <key id> [--file <path>]',
}

export interface KeyCommandContext {
  keys: DataDocument<KeysFile>
  /** Opened only by the commands that change something. */
  audit: () => AuditTrail
  io: CliIo
  now: Date
}

export async function createKey(
  values: { role?: string | undefined; label?: string | undefined; expires?: string | undefined },
  { keys, audit, io, now }: KeyCommandContext,
): Promise<number> {
  const role = values.role ?? ''
  if (!isRole(role)) throw new UsageError(`--role must be one of: ${ROLE_NAMES.join(', ')}`, KEY_USAGE.create)
  const label = required(values.label, '--label', KEY_USAGE.create)
  const expires = values.expires === undefined ? undefined : parseExpiry(values.expires, now)
  const key = generateApiKey(role === 'sandbox.read' ? 'sandbox' : 'live')
  const entry: KeyEntry = {
    id: newKeyId(),
    hash: hashApiKey(key),
    role,
    label,
    created_at: now.toISOString(),
    expires_at: expires?.at ?? null,
    revoked_at: null,
  }
  await keys.update((file) => ({ ...file, keys: [...file.keys, entry] }))
  const unrecorded = await audit().record('create', 'key', entry.id, {
    role,
    label,
    ...(expires && { expires_at: expires.at }),
  })
  io.err(
    `created ${entry.id} (${role}, ${expires ? `expires ${expires.understood}` : 'never expires'}) in ${keys.location}; the key is shown only now:`,
  )
  io.out(key)
  if (unrecorded) throw unrecorded
  return 0
}

export async function listKeys({ keys, io, now }: KeyCommandContext): Promise<number> {
  for (const k of [SANDBOX_KEY_ENTRY, ...(await keys.read()).keys]) {
    const state = k.revoked_at
      ? `revoked ${k.revoked_at}`
      : k.expires_at && Date.parse(k.expires_at) <= now.getTime()
        ? `expired ${k.expires_at}`
        : k.expires_at
          ? `expires ${k.expires_at}`
          : 'active'
    io.out(`${k.id}\t${k.role}\t${state}\t${k.label}`)
  }
  return 0
}

export async function revokeKey(id: string | undefined, { keys, audit, io, now }: KeyCommandContext): Promise<number> {
  const keyId = required(id, 'a key id', KEY_USAGE.revoke)
  if (keyId === SANDBOX_KEY_ENTRY.id)
    throw new UsageError(`${keyId} is the public sandbox key, built in (contract/sandbox.ts): it cannot be revoked`)
  await keys.update((file) => {
    const entry = file.keys.find((k) => k.id === keyId)
    if (!entry) throw new UsageError(`no key with id ${keyId} in ${keys.location}`)
    entry.revoked_at ??= now.toISOString()
    return file
  })
  const unrecorded = await audit().record('revoke', 'key', keyId)
  io.err(`revoked ${keyId}`)
  if (unrecorded) throw unrecorded
  return 0
}
