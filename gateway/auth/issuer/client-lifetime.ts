/**
 * How long a dynamically registered client is kept. Registration is open to
 * anyone, so a registration lives only while it is used: one that obtains
 * no token within the grace period (OAUTH_CLIENT_GRACE_HOURS) is removed,
 * and so is one that has obtained none for the idle period
 * (OAUTH_CLIENT_IDLE_DAYS). The store's own expiry does the removing; each
 * token obtained moves it on. A client with a secret is told the end in
 * `client_secret_expires_at`, which the provider also enforces. Machine
 * clients (the clients file, the CLI's) are not in the store: they never
 * expire.
 */
import type { AdapterPayload } from 'oidc-provider'
import type { StateStore } from '../store/state-store.ts'

export interface ClientLifetime {
  /** Seconds an unused registration is kept. */
  graceSeconds: number
  /** Seconds a registration is kept after the last token it obtained. */
  idleSeconds: number
  /** The clock, in milliseconds (the platform's). */
  now: () => number
}

/** Ids of self-registered clients start with it (provider.ts's idFactory); the keys CLI refuses it for machine clients. */
export const REGISTERED_CLIENT_PREFIX = 'reg_'

/** Where a client's record is (the adapter's `oidc/<Model>/<id>`). */
export const clientKey = (id: string): string => `oidc/Client/${encodeURIComponent(id)}`

/** The record's end (epoch seconds), kept beside the metadata: the provider ignores fields it does not know. */
const ENDS_AT = 'registration_ends_at'

const DAY_SECONDS = 24 * 60 * 60

const epochSeconds = (lifetime: ClientLifetime) => Math.floor(lifetime.now() / 1000)

/** The end of a registration made now (and of its secret). */
export function registrationEnd(lifetime: ClientLifetime): number {
  return epochSeconds(lifetime) + lifetime.graceSeconds
}

/** A client being registered: its record, with its end, and how long the store keeps it. */
export function registeredRecord(
  payload: AdapterPayload,
  lifetime: ClientLifetime,
): { record: AdapterPayload; ttl: number } {
  const now = epochSeconds(lifetime)
  const secretEnd = payload.client_secret_expires_at
  const end = typeof secretEnd === 'number' && secretEnd > now ? secretEnd : now + lifetime.graceSeconds
  return { record: { ...payload, [ENDS_AT]: end }, ttl: end - now }
}

/**
 * After `id` obtained a token: keep its registration for the idle period
 * from now. Written at most once a day (a tenth of the idle period if that
 * is shorter), not at every token.
 */
export async function keepUsedClient(store: StateStore, id: string, lifetime: ClientLifetime): Promise<void> {
  if (!id.startsWith(REGISTERED_CLIENT_PREFIX)) return
  const key = clientKey(id)
  const record = await store.get<AdapterPayload>(key)
  if (!record) return
  const end = epochSeconds(lifetime) + lifetime.idleSeconds
  const known = typeof record[ENDS_AT] === 'number' ? record[ENDS_AT] : 0
  if (end - known < Math.min(DAY_SECONDS, lifetime.idleSeconds / 10)) return
  const kept: AdapterPayload = { ...record, [ENDS_AT]: end }
  if (record.client_secret_expires_at) kept.client_secret_expires_at = end
  await store.set(key, kept, lifetime.idleSeconds)
}
