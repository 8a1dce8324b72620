/**
 * `createAuth(settings, runtime)`: everything credential-related a gateway
 * process needs — the guard protected routes call, and (for the credential
 * routes, routes.ts) the embedded authorization server or the external
 * issuer's metadata. createGateway (gateway/gateway.ts) makes it.
 *
 * @example
 * const auth = await createAuth(readSettings(process.env, 'start'), { root: '.', publicUrl: () => url })
 * const principal = await auth.requireScope(event, 'mcp.tools.invoke')
 */
import type { Configuration } from 'oidc-provider'
import type { TrustProxy } from '../http/client-ip.ts'
import type { Logger } from '../log.ts'
import { silentLogger } from '../log.ts'
import type { Settings } from '../../contract/settings.ts'
import { authSettingsFrom } from './config.ts'
import { createGuard, type Guard } from './guard.ts'
import { createFailureThrottle, type FailureThrottle } from './failed-auth.ts'
import { createEmbeddedIssuer, type EmbeddedIssuer } from './issuer/embedded-issuer.ts'
import type { Resources } from './issuer/resources.ts'
import { createMetadataSource, type MetadataSource } from './issuer-metadata.ts'
import { IssuerUnavailableError } from './errors.ts'
import { createJwtVerifier, type JwtVerifier, type VerifiedToken } from './jwt.ts'
import { openKeyStore } from './key-store.ts'
import { keysDocument } from './keys-file.ts'
import { openStateStore, sweepRegularly } from './store/open-store.ts'
import { sharedLimiterBackend } from '../http/shared-limits.ts'
import { RESOURCE_PATHS } from '../../contract/public-paths.ts'
import { FIXED_SCOPES } from '../../contract/scopes.ts'

export interface AuthRuntime {
  /** The gateway's folder: the settings' relative file paths resolve against it. */
  root: string
  /** This gateway's public origin; a function when known only after listening (port 0). */
  publicUrl: string | (() => string)
  logger?: Logger
  /** How the embedded server fetches Client ID Metadata Documents; tests point example hosts at local servers. */
  fetch?: Configuration['fetch']
  /** The clock of the state store's expiry and the registered clients' lifetimes, in milliseconds (default the system's). */
  now?: () => number
  /** Sweep the state store hourly (default): off where something else sweeps it (Netlify's scheduled function). */
  sweep?: boolean
  /** Every scope of the API now: the fixed ones and the collections' of the build served (default the fixed ones). */
  scopes?: () => readonly string[]
}

export interface Auth extends Guard {
  readonly mode: 'built-in' | 'external'
  publicUrl(): string
  /** The issuer identifier tokens must carry. */
  issuer(): string
  /** Resource indicators (token audiences) this gateway answers for. */
  resources(): Resources
  /** Set in built-in mode: the embedded authorization server. */
  readonly builtIn?: EmbeddedIssuer
  readonly trustProxy: TrustProxy
  /** Failed authentications per address and identifier: sign-ins, client secrets, API keys. */
  readonly failures: FailureThrottle
  /** Set in external mode: the issuer's metadata (also gives its JWKS URL). */
  readonly external?: MetadataSource
  readonly log: Logger
}

export async function createAuth(gatewaySettings: Settings, runtime: AuthRuntime): Promise<Auth> {
  const settings = authSettingsFrom(gatewaySettings, runtime.root)
  const log = runtime.logger ?? silentLogger
  const publicUrl = typeof runtime.publicUrl === 'function' ? runtime.publicUrl : () => runtime.publicUrl as string
  const resources = (): Resources => {
    const base = publicUrl()
    const scopes = runtime.scopes?.() ?? FIXED_SCOPES
    return { accepted: RESOURCE_PATHS.map((p) => `${base}${p}`), fallback: base, scopes }
  }
  const now = runtime.now ?? Date.now
  const store = openStateStore(settings.store, now)
  const keys = await openKeyStore(
    keysDocument(settings.keysFile, () => store),
    log,
  )
  const { issuer: issuerSettings } = settings
  if (runtime.sweep !== false) sweepRegularly(store, log)
  const failures = createFailureThrottle(store, {
    backend: sharedLimiterBackend(settings.store, 'closed'),
    onStoreError: (error) => log('warn', 'could not count a failed authentication', { error: error.message }),
  })
  const trustProxy = gatewaySettings.TRUST_PROXY

  let builtIn: EmbeddedIssuer | undefined
  let external: MetadataSource | undefined
  let issuer: () => string
  let makeVerifier: () => JwtVerifier
  let revoked: ((token: VerifiedToken) => Promise<string | undefined>) | undefined
  if (issuerSettings.kind === 'built-in') {
    issuer = publicUrl
    const embedded = await createEmbeddedIssuer(issuerSettings, {
      issuer,
      resources,
      store,
      log,
      fetch: runtime.fetch,
      now,
    })
    const { key } = embedded
    builtIn = embedded
    revoked = async (token) => {
      try {
        return await embedded.revocations.check(token.claims)
      } catch (error) {
        // Whether the token was revoked cannot be told: refused for now (503), never let through.
        throw new IssuerUnavailableError(`the revocation list could not be read: ${(error as Error).message}`)
      }
    }
    makeVerifier = () =>
      createJwtVerifier({
        issuer: issuer(),
        audience: resources().accepted,
        algorithms: [key.alg],
        clockTolerance: settings.clockToleranceSeconds,
        keys: { local: { keys: [key.publicJwk] } },
      })
  } else {
    const { jwksUrl, audience } = issuerSettings
    const source = createMetadataSource(issuerSettings.issuer)
    external = source
    issuer = () => issuerSettings.issuer
    makeVerifier = () =>
      createJwtVerifier({
        issuer: issuerSettings.issuer,
        audience: audience ?? resources().accepted,
        clockTolerance: settings.clockToleranceSeconds,
        keys: { jwksUrl: async () => jwksUrl ?? jwksUriOf(await source.get()) },
      })
  }
  // Built on first use: the public URL may be known only once the server listens.
  let verifier: JwtVerifier | undefined
  const guard = createGuard({
    keys,
    verifyJwt: () => (verifier ??= makeVerifier()),
    revoked,
    publicUrl,
    log,
    failures,
    trustProxy,
  })
  return {
    ...guard,
    mode: issuerSettings.kind,
    publicUrl,
    issuer,
    resources,
    builtIn,
    external,
    log,
    trustProxy,
    failures,
  }
}

function jwksUriOf(metadata: Record<string, unknown>): string {
  const uri = metadata.jwks_uri
  if (typeof uri !== 'string') throw new Error('the issuer metadata has no jwks_uri')
  return uri
}
