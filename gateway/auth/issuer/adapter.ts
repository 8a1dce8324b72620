/**
 * oidc-provider's storage adapter over the state store: one record per
 * model instance (`oidc/<Model>/<id>`), small index records for the lookups
 * the provider makes by uid, user code and grant, and expiry from the
 * provider's own TTLs. Registered clients' secrets are stored only as
 * SHA-256 hashes, and a registration expires unless it is used
 * (client-lifetime.ts); machine clients come from the clients file, not
 * the store. Every record an anonymous caller can cause expires.
 */
import type { Adapter, AdapterConstructor, AdapterPayload } from 'oidc-provider'
import type { StateStore } from '../store/state-store.ts'
import { registeredRecord, type ClientLifetime } from './client-lifetime.ts'
import { hashClientSecret } from './clients-file.ts'

/** Clients that are not in the store: the machine clients of the clients file. */
export interface ClientSource {
  find(id: string): Promise<AdapterPayload | undefined>
}

/** A stored secret is `sha256:<hex>`; anything else came from a caller and is hashed before it is written. */
export const isHashedSecret = (value: unknown): boolean =>
  typeof value === 'string' && /^sha256:[0-9a-f]{64}$/.test(value)

const GRANT_BOUND = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
])

/**
 * `grantRevoked`: told when the provider revokes a grant's tokens (every path of its `revoke`: a refresh token
 * revoked, a code or refresh token used twice), before it answers; the JWT access tokens of the grant are stored
 * nowhere, so only this tells the gateway to refuse them.
 */
export function stateAdapter(
  store: StateStore,
  clients: ClientSource,
  lifetime: ClientLifetime,
  grantRevoked: (grantId: string) => Promise<void> = async () => {},
): AdapterConstructor {
  return class StateAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private key(id: string): string {
      return `oidc/${this.model}/${encodeURIComponent(id)}`
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      if (this.model === 'Client') {
        // The provider upserts a client only when it is registered (there is no management endpoint).
        const hashed =
          payload.client_secret && !isHashedSecret(payload.client_secret)
            ? { ...payload, client_secret: hashClientSecret(payload.client_secret) }
            : payload
        const { record, ttl } = registeredRecord(hashed, lifetime)
        await store.set(this.key(id), record, ttl)
        return
      }
      const ttl = expiresIn && expiresIn > 0 ? expiresIn : undefined
      await store.set(this.key(id), payload, ttl)
      const indexes: Promise<void>[] = []
      if (payload.grantId && GRANT_BOUND.has(this.model))
        indexes.push(
          store.set(
            `oidc/grant/${encodeURIComponent(payload.grantId)}/${this.model}/${encodeURIComponent(id)}`,
            id,
            ttl,
          ),
        )
      if (payload.uid) indexes.push(store.set(`oidc/${this.model}-uid/${encodeURIComponent(payload.uid)}`, id, ttl))
      if (payload.userCode)
        indexes.push(store.set(`oidc/${this.model}-user-code/${encodeURIComponent(payload.userCode)}`, id, ttl))
      await Promise.all(indexes)
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') {
        const machine = await clients.find(id)
        if (machine) return machine
      }
      return store.get<AdapterPayload>(this.key(id))
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = await store.get<string>(`oidc/${this.model}-uid/${encodeURIComponent(uid)}`)
      return id ? this.find(id) : undefined
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const id = await store.get<string>(`oidc/${this.model}-user-code/${encodeURIComponent(userCode)}`)
      return id ? this.find(id) : undefined
    }

    async consume(id: string): Promise<void> {
      const payload = await store.get<AdapterPayload>(this.key(id))
      if (!payload) return
      const now = Math.floor(Date.now() / 1000)
      const ttl = typeof payload.exp === 'number' ? payload.exp - now : undefined
      if (ttl !== undefined && ttl <= 0) return
      await store.set(this.key(id), { ...payload, consumed: now }, ttl)
    }

    async destroy(id: string): Promise<void> {
      await store.delete(this.key(id))
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      // The provider revokes a grant model by model, AccessToken always among them: recorded once, first.
      if (this.model === 'AccessToken') await grantRevoked(grantId)
      const prefix = `oidc/grant/${encodeURIComponent(grantId)}/${this.model}/`
      for (const marker of await store.list(prefix)) {
        await store.delete(`oidc/${this.model}/${marker.slice(prefix.length)}`)
        await store.delete(marker)
      }
    }
  }
}
