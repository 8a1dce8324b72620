/**
 * Client secrets are kept only as SHA-256 hashes: the machine clients' in
 * the clients file, registered clients' by the storage adapter. The machine
 * clients reach oidc-provider through the adapter, as client_credentials-only
 * clients; the provider compares a presented secret with the stored hash.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { AdapterPayload } from 'oidc-provider'
import type { FileCache } from '../file-cache.ts'
import type { ClientSource } from './adapter.ts'
import type { ClientsFile } from './clients-file.ts'
import { SANDBOX_MACHINE_CLIENT } from '../sandbox.ts'

/** The built-in sandbox client and the machine clients of the runtime data, as client metadata; a revoked client is unknown. */
export function machineClients(file: FileCache<ClientsFile>): ClientSource {
  return {
    async find(id) {
      const client = [SANDBOX_MACHINE_CLIENT, ...(await file.get()).clients].find((c) => c.client_id === id)
      if (!client || client.revoked_at) return undefined
      const metadata: AdapterPayload = {
        client_id: client.client_id,
        client_secret: client.secret_hash,
        client_name: client.label,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: client.scopes.join(' '),
        token_endpoint_auth_method: 'client_secret_basic',
      }
      return metadata
    },
  }
}

/** Constant-time comparison of a presented secret with a stored `sha256:<hex>` hash. */
export function secretMatchesHash(presented: string, stored: string): boolean {
  const actual = Buffer.from(`sha256:${createHash('sha256').update(presented, 'utf8').digest('hex')}`)
  const expected = Buffer.from(stored)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

interface ClientWithSecret {
  clientSecret?: string | undefined
  compareClientSecret(actual: string): Promise<boolean> | boolean
}

/**
 * Teach a provider's Client class to compare hashes: oidc-provider compares
 * the stored secret with the presented one as plain strings, and offers no
 * option for hashed storage. Nothing else reads the secret, because the
 * methods that would (client_secret_jwt, HS* signing, secret-derived
 * encryption keys) are switched off in the provider's configuration.
 */
export function compareHashedSecrets(clientClass: { prototype: ClientWithSecret }): void {
  clientClass.prototype.compareClientSecret = function compareClientSecret(this: ClientWithSecret, actual: string) {
    return (
      typeof this.clientSecret === 'string' &&
      typeof actual === 'string' &&
      secretMatchesHash(actual, this.clientSecret)
    )
  }
}
