/**
 * The embedded authorization server as the gateway holds it: the signing
 * key, the state store, the people and the
 * oidc-provider instance for the current issuer (built on first use: the
 * public URL may be known only once the server listens). oidc-provider itself
 * (and Koa under it) is loaded then too: a process, or a Netlify Function
 * instance, that answers only content or API-key calls never evaluates it.
 */
import type Provider from 'oidc-provider'
import type { Configuration } from 'oidc-provider'
import { loadOnce } from '../../load-once.ts'
import type { Logger } from '../../log.ts'
import type { DataLocation } from '../runtime-data.ts'
import { openPeople, type People } from '../people/people.ts'
import type { StateStore } from '../store/state-store.ts'
import { createCeilings, type CeilingName, type Ceilings } from './ceilings.ts'
import { clientKey, keepUsedClient, REGISTERED_CLIENT_PREFIX, type ClientLifetime } from './client-lifetime.ts'
import { machineClients } from './client-secrets.ts'
import { clientsDocument } from './clients-file.ts'
import { forwardedRequest, runNodeHandler } from './node-bridge.ts'
import { OPENID_CONFIGURATION_PATH } from '../../../contract/public-paths.ts'
import type { Resources } from './resources.ts'
import { deriveSecret, loadSigningKey, type SigningKey } from './signing-key.ts'
import { tokenRevocations, type TokenRevocations } from './token-revocation.ts'

export interface EmbeddedIssuerSettings {
  /** The machine clients' file; undefined: the state store (gateway/auth/runtime-data.ts). */
  clientsFile: DataLocation
  signingKeyFile: string
  signingKeyJwk?: string | undefined
  tokenTtlSeconds: number
  /** Seconds past `exp` a token is still accepted (the verifier's): how long a revoked one must stay denied. */
  clockToleranceSeconds: number
  /** How long a registered client is kept unused: after registering, after its last token (client-lifetime.ts). */
  clientGraceSeconds: number
  clientIdleSeconds: number
  /** The most registered clients and authorization requests in progress kept (ceilings.ts). */
  ceilings: Readonly<Record<CeilingName, number>>
}

export interface EmbeddedIssuerRuntime {
  issuer: () => string
  resources: () => Resources
  /** Where grants, sessions, registered clients and people live (opened by createAuth). */
  store: StateStore
  log: Logger
  /** How Client ID Metadata Documents are fetched (tests point example hosts at local servers). */
  fetch?: Configuration['fetch']
  /** The clock of the registered clients' lifetimes, in milliseconds (the store's). */
  now: () => number
}

export interface EmbeddedIssuer {
  readonly key: SigningKey
  readonly store: StateStore
  readonly people: People
  /** Key of the CSRF tokens on the sign-in and consent forms. */
  readonly csrfKey: Buffer
  readonly ttlSeconds: number
  /** What the server keeps of anonymous callers' registrations and sign-ins, at most. */
  readonly ceilings: Ceilings
  /** `clientId` obtained a token: a registered client is kept for the idle period from now. */
  clientUsed(clientId: string): Promise<void>
  /** The deny list of the access tokens taken back (token-revocation.ts), and the check of a token's client. */
  readonly revocations: TokenRevocations
  provider(): Promise<Provider>
  /** The provider's OpenID discovery document, also served as RFC 8414 metadata. */
  discovery(): Promise<Record<string, unknown>>
  /** Answer `request` with the provider, as if it had arrived at the public origin from `clientAddress`. */
  handle(request: Request, clientAddress: string, body?: Uint8Array): Promise<Response>
}

export async function createEmbeddedIssuer(
  settings: EmbeddedIssuerSettings,
  runtime: EmbeddedIssuerRuntime,
): Promise<EmbeddedIssuer> {
  const key = await loadSigningKey({ jwk: settings.signingKeyJwk, file: settings.signingKeyFile }, runtime.log)
  const { store } = runtime
  const clientsFile = await clientsDocument(settings.clientsFile, () => store).follow(runtime.log)
  const people = openPeople(store)
  const machines = machineClients(clientsFile)
  const revocations = tokenRevocations({
    store,
    key,
    issuer: runtime.issuer,
    accessTokenTtl: settings.tokenTtlSeconds,
    clockTolerance: settings.clockToleranceSeconds,
    // Machine clients while in the clients file and not revoked; registered ones while their record lives;
    // a Client ID Metadata Document client (its id a URL) is not kept, so there is nothing to revoke.
    async clientActive(id) {
      if (id.startsWith(REGISTERED_CLIENT_PREFIX)) return (await store.get(clientKey(id))) !== undefined
      return URL.canParse(id) || (await machines.find(id)) !== undefined
    },
  })
  const clientLifetime: ClientLifetime = {
    graceSeconds: settings.clientGraceSeconds,
    idleSeconds: settings.clientIdleSeconds,
    now: runtime.now,
  }
  let current:
    | {
        issuer: string
        provider: Provider
        callback: ReturnType<Provider['callback']>
        discovery?: Promise<Record<string, unknown>>
      }
    | undefined

  // Loaded on first use only (oidc-provider also warns about Node 20 on import).
  const loadProviderModule = loadOnce(() => import('./provider.ts'))

  const instance = async () => {
    const { createProvider } = await loadProviderModule()
    const issuer = runtime.issuer()
    if (current?.issuer !== issuer) {
      const provider = createProvider({
        issuer,
        key,
        store,
        clients: machines,
        revocations,
        people,
        resources: runtime.resources,
        accessTokenTtl: settings.tokenTtlSeconds,
        clientLifetime,
        log: runtime.log,
        fetch: runtime.fetch,
      })
      current = { issuer, provider, callback: provider.callback() }
    }
    return current
  }
  const handle = async (request: Request, clientAddress: string, body?: Uint8Array) => {
    const { callback, issuer } = await instance()
    return runNodeHandler(callback, forwardedRequest(request, { publicUrl: issuer, clientAddress, body }))
  }

  return {
    key,
    store,
    people,
    csrfKey: deriveSecret(key, 'csrf tokens'),
    ttlSeconds: settings.tokenTtlSeconds,
    ceilings: createCeilings(store, settings.ceilings, runtime.log),
    clientUsed: (clientId) => keepUsedClient(store, clientId, clientLifetime),
    revocations,
    provider: async () => (await instance()).provider,
    async discovery() {
      const entry = await instance()
      entry.discovery ??= (async () => {
        const response = await handle(new Request(new URL(OPENID_CONFIGURATION_PATH, entry.issuer)), '127.0.0.1')
        if (!response.ok) throw new Error(`the provider's discovery document answered ${response.status}`)
        return (await response.json()) as Record<string, unknown>
      })()
      return entry.discovery.catch((error: unknown) => {
        entry.discovery = undefined
        throw error
      })
    },
    handle,
  }
}
