/**
 * Authentication settings from the environment. Without OAUTH_ISSUER the
 * embedded authorization server (oidc-provider) is on; with it, the gateway
 * only verifies that issuer's tokens.
 *
 * KEYS_FILE            API keys file (default gateway/auth/keys.json)
 * OAUTH_ISSUER         external issuer identifier (URL); turns the built-in issuer off
 * OAUTH_JWKS_URL       its JWKS (default: jwks_uri from its metadata)
 * OAUTH_AUDIENCE       accepted audiences, comma-separated (default: the public URL and <public URL>/mcp)
 * OAUTH_CLIENTS_FILE   built-in issuer's clients (default gateway/auth/issuer/clients.json)
 * OAUTH_SIGNING_KEY    built-in issuer's private P-256 JWK as JSON (default: generated into gateway/.keys/)
 * OAUTH_TOKEN_TTL      built-in access token lifetime in seconds (default 3600)
 * OAUTH_STORE          built-in issuer's shared state: files (default) or netlify-blobs
 * OAUTH_STORE_DIR      its folder with `files` (default gateway/.data/oauth, git-ignored)
 */
import { resolve } from 'node:path'
import { AuthConfigError } from './errors.ts'
import { clientsFilePath } from './issuer/clients-file.ts'
import type { EmbeddedIssuerSettings } from './issuer/embedded-issuer.ts'
import { DEFAULT_SIGNING_KEY_FILE } from './issuer/signing-key.ts'
import { keysFilePath } from './keys-file.ts'
import { readStoreSettings } from './store/open-store.ts'

export type IssuerSettings =
  | ({ kind: 'built-in' } & EmbeddedIssuerSettings)
  | { kind: 'external'; issuer: string; jwksUrl?: string | undefined; audience?: string[] | undefined }

export interface AuthSettings {
  keysFile: string
  issuer: IssuerSettings
  clockToleranceSeconds: number
}

export function readAuthSettings(env: NodeJS.ProcessEnv, root = process.cwd()): AuthSettings {
  const keysFile = keysFilePath(env, root)
  const clockToleranceSeconds = 30
  if (env.OAUTH_ISSUER) {
    const issuer = httpUrl(env.OAUTH_ISSUER, 'OAUTH_ISSUER')
    const jwksUrl = env.OAUTH_JWKS_URL ? httpUrl(env.OAUTH_JWKS_URL, 'OAUTH_JWKS_URL') : undefined
    const audience = env.OAUTH_AUDIENCE?.split(',').map((a) => a.trim()).filter(Boolean)
    return { keysFile, clockToleranceSeconds, issuer: { kind: 'external', issuer, jwksUrl, audience: audience?.length ? audience : undefined } }
  }
  const ttl = env.OAUTH_TOKEN_TTL ? Number(env.OAUTH_TOKEN_TTL) : 3600
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > 86_400) throw new AuthConfigError('OAUTH_TOKEN_TTL must be a whole number of seconds from 60 to 86400')
  return {
    keysFile,
    clockToleranceSeconds,
    issuer: {
      kind: 'built-in',
      clientsFile: clientsFilePath(env, root),
      signingKeyFile: resolve(root, DEFAULT_SIGNING_KEY_FILE),
      signingKeyJwk: env.OAUTH_SIGNING_KEY || undefined,
      tokenTtlSeconds: ttl,
      store: readStoreSettings(env, root),
    },
  }
}

function httpUrl(value: string, name: string): string {
  try {
    const url = new URL(value)
    if (url.protocol === 'https:' || url.protocol === 'http:') return value
  } catch {
    // fall through to the error below
  }
  throw new AuthConfigError(`${name} must be an http(s) URL, got "${value.slice(0, 200)}"`)
}
