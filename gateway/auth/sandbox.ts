/**
 * The public sandbox credentials (contract/sandbox.ts) as the gateway holds
 * them: a key entry and a machine client that every gateway knows, with no
 * keys or clients file, because the docs publish them. Only their hashes are
 * compared, as for any other credential.
 */
import { SANDBOX_CLIENT, SANDBOX_KEY } from '../../contract/sandbox.ts'
import { hashApiKey } from './api-key.ts'
import type { Client } from './issuer/clients-file.ts'
import { hashClientSecret } from './issuer/clients-file.ts'
import type { KeyEntry } from './keys-file.ts'

/** When the sandbox credentials were first published. */
const PUBLISHED = '2026-01-01T00:00:00Z'

export const SANDBOX_KEY_ENTRY: KeyEntry = {
  id: 'key_sandbox',
  hash: hashApiKey(SANDBOX_KEY),
  role: 'sandbox.read',
  label: 'Public sandbox key, published in the docs; read-only (built in: contract/sandbox.ts)',
  created_at: PUBLISHED,
  expires_at: null,
  revoked_at: null,
}

export const SANDBOX_MACHINE_CLIENT: Client = {
  client_id: SANDBOX_CLIENT.id,
  secret_hash: hashClientSecret(SANDBOX_CLIENT.secret),
  scopes: [...SANDBOX_CLIENT.scopes],
  label: 'Public sandbox client, secret published in the docs; read scopes only (built in: contract/sandbox.ts)',
  created_at: PUBLISHED,
  revoked_at: null,
}
