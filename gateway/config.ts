/**
 * The gateway's configuration, from the one settings schema
 * (contract/settings.ts) with the embedded defaults a new user runs
 * first: 127.0.0.1:8787, dist/ beside the project.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { readSettings, SettingsError, type Runtime, type Settings } from '../contract/settings.ts'
import type { LogLevel } from './log.ts'
import { limitsFrom, type LimitSettings } from './http/limits.ts'
import { authSettingsFrom, type AuthSettings } from './auth/config.ts'
import { isLoopbackHostname } from './mcp/origin-guard.ts'
import { webhookSettingsFrom, type WebhookSettings } from './webhooks/settings.ts'

export interface GatewayConfig {
  host: string
  port: number
  distDir: string
  /** Public origin of this gateway (for links in metadata); defaults to http://host:port. */
  publicUrl: string | undefined
  logLevel: LogLevel
  /** Megabytes of built files and rendered answers kept in memory (FILE_CACHE_MB). */
  fileCacheMb: number
  /** Timeout, body caps, rate limit and proxy trust. */
  limits: LimitSettings
  /** `off` drops the credential guard on /mcp (for the conformance suite); refused unless HOST is loopback. */
  mcpAuth: 'on' | 'off'
  /** Browser origins allowed on /mcp besides loopback and PUBLIC_URL. */
  mcpAllowedOrigins: string[]
  /** API keys file and the token issuer: embedded, or external with OAUTH_ISSUER (see gateway/auth/config.ts). */
  auth: AuthSettings
  /** Webhook subscriptions' store, URL policy, secrets key and retry bound (see gateway/webhooks/). */
  webhooks: WebhookSettings
}

/** Read and check every setting for `runtime`; throws SettingsError naming the first bad one. */
export function readConfig(
  env: Record<string, string | undefined>,
  runtime: Runtime,
  root = process.cwd(),
): GatewayConfig {
  return configFrom(readSettings(env, runtime), root)
}

export function configFrom(settings: Settings, root = process.cwd()): GatewayConfig {
  if (settings.MCP_AUTH === 'off' && !isLoopbackHostname(settings.HOST)) {
    throw new SettingsError(
      'MCP_AUTH',
      `MCP_AUTH=off serves /mcp without credentials, so it only runs on a loopback address (127.0.0.1, ::1, localhost); HOST is "${settings.HOST}"`,
    )
  }
  // The address listened on is no name for clients (0.0.0.0, a LAN address): the OAuth metadata
  // would advertise it, and /mcp would refuse the name clients do use.
  if (!isLoopbackHostname(settings.HOST) && settings.PUBLIC_URL === undefined) {
    throw new SettingsError(
      'PUBLIC_URL',
      `PUBLIC_URL must be set when HOST is not a loopback address (HOST is "${settings.HOST}"): it is the origin clients use, which the OAuth metadata names and /mcp checks requests against, e.g. PUBLIC_URL=http://192.168.1.20:8787`,
    )
  }
  return {
    host: settings.HOST,
    port: settings.PORT,
    distDir: resolve(root, settings.DIST_DIR),
    publicUrl: settings.PUBLIC_URL,
    logLevel: settings.LOG_LEVEL,
    fileCacheMb: settings.FILE_CACHE_MB,
    limits: limitsFrom(settings),
    mcpAuth: settings.MCP_AUTH,
    mcpAllowedOrigins: settings.MCP_ALLOWED_ORIGINS,
    auth: authSettingsFrom(settings, root),
    webhooks: webhookSettingsFrom(settings, root),
  }
}

/** The package version, reported by /api/health. */
export function packageVersion(root = process.cwd()): string {
  try {
    return (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string }).version
  } catch {
    return '0.0.0'
  }
}
