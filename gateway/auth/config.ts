/**
 * Authentication settings. Without OAUTH_ISSUER the embedded authorization
 * server (oidc-provider) is on; with it, the gateway only verifies that
 * issuer's tokens. Each variable is described in contract/settings.ts.
 */
import { resolve } from 'node:path'
import type { EmbeddedIssuerSettings } from './issuer/embedded-issuer.ts'
import { DEFAULT_SIGNING_KEY_FILE } from './issuer/signing-key.ts'
import { dataLocations, type DataLocation } from './runtime-data.ts'
import { storeSettingsFrom, type StoreSettings } from './store/open-store.ts'
import type { Settings } from '../../contract/settings.ts'

export type IssuerSettings =
  | ({ kind: 'built-in' } & EmbeddedIssuerSettings)
  | { kind: 'external'; issuer: string; jwksUrl?: string | undefined; audience?: string[] | undefined }

export interface AuthSettings {
  /** The API keys' file; undefined: the state store (gateway/auth/runtime-data.ts). */
  keysFile: DataLocation
  issuer: IssuerSettings
  clockToleranceSeconds: number
  /** Shared state: the embedded server's grants, sessions and people, and the failed-authentication counts (either issuer). */
  store: StoreSettings
}

/** The credential settings of the settings (see contract/settings.ts for each variable). */
export function authSettingsFrom(settings: Settings, root = process.cwd()): AuthSettings {
  const { keys: keysFile, clients: clientsFile } = dataLocations(settings, root)
  const clockToleranceSeconds = 30
  const store = storeSettingsFrom(settings, root)
  if (settings.OAUTH_ISSUER) {
    const { OAUTH_ISSUER: issuer, OAUTH_JWKS_URL: jwksUrl, OAUTH_AUDIENCE: audience } = settings
    return { keysFile, clockToleranceSeconds, store, issuer: { kind: 'external', issuer, jwksUrl, audience } }
  }
  return {
    keysFile,
    clockToleranceSeconds,
    store,
    issuer: {
      kind: 'built-in',
      clientsFile,
      signingKeyFile: resolve(root, DEFAULT_SIGNING_KEY_FILE),
      signingKeyJwk: settings.OAUTH_SIGNING_KEY,
      tokenTtlSeconds: settings.OAUTH_TOKEN_TTL,
      clockToleranceSeconds,
      clientGraceSeconds: settings.OAUTH_CLIENT_GRACE_HOURS * 60 * 60,
      clientIdleSeconds: settings.OAUTH_CLIENT_IDLE_DAYS * 24 * 60 * 60,
      ceilings: {
        clients: settings.OAUTH_MAX_REGISTERED_CLIENTS,
        authorizations: settings.OAUTH_MAX_PENDING_AUTHORIZATIONS,
      },
    },
  }
}
