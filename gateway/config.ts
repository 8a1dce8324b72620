/**
 * Gateway settings from the environment, with the embedded defaults a new
 * user runs first: 127.0.0.1:8787, dist/ beside the project.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { LogLevel } from './log.ts'
import { LimitConfigError, readLimits, type LimitSettings } from './http/limits.ts'
import { readAuthSettings, type AuthSettings } from './auth/config.ts'
import { AuthConfigError } from './auth/errors.ts'
import { isLoopbackHostname } from './mcp/origin-guard.ts'

export const DEFAULT_PORT = 8787
export const DEFAULT_HOST = '127.0.0.1'

export interface GatewayConfig {
  host: string
  port: number
  distDir: string
  /** Public origin of this gateway (for links in metadata); defaults to http://host:port. */
  publicUrl: string | undefined
  logLevel: LogLevel
  /** Timeout, body caps, rate limit and proxy trust (REQUEST_TIMEOUT_MS, RATE_LIMIT_PER_MINUTE, TRUST_PROXY, …). */
  limits: LimitSettings
  /** MCP_AUTH: `off` drops the credential guard on /mcp (for the conformance suite); refused unless HOST is loopback. */
  mcpAuth: 'on' | 'off'
  /** MCP_ALLOWED_ORIGINS: browser origins (comma-separated) allowed on /mcp besides loopback and PUBLIC_URL. */
  mcpAllowedOrigins: string[]
  /** API keys file and the token issuer: built-in, or external with OAUTH_ISSUER (see gateway/auth/config.ts). */
  auth: AuthSettings
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
  readonly code = 'CONFIG_INVALID'
}

export function readConfig(env: NodeJS.ProcessEnv, root = process.cwd()): GatewayConfig {
  const port = env.PORT === undefined || env.PORT === '' ? DEFAULT_PORT : Number(env.PORT)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`)
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be debug, info, warn, error or silent`)
  const publicUrl = env.PUBLIC_URL?.replace(/\/+$/, '') || undefined
  if (publicUrl && !/^https?:\/\/[^/]+$/.test(publicUrl)) throw new ConfigError(`PUBLIC_URL must be an origin like https://api.example.com`)
  let limits: LimitSettings
  try {
    limits = readLimits(env)
  } catch (error) {
    throw error instanceof LimitConfigError ? new ConfigError(error.message) : error
  }
  let auth: AuthSettings
  try {
    auth = readAuthSettings(env, root)
  } catch (error) {
    throw error instanceof AuthConfigError ? new ConfigError(error.message) : error
  }
  const host = env.HOST || DEFAULT_HOST
  const mcpAuth = (env.MCP_AUTH || 'on').toLowerCase()
  if (mcpAuth !== 'on' && mcpAuth !== 'off') throw new ConfigError(`MCP_AUTH must be on or off, got "${env.MCP_AUTH}"`)
  if (mcpAuth === 'off' && !isLoopbackHostname(host)) {
    throw new ConfigError(`MCP_AUTH=off serves /mcp without credentials, so it only runs on a loopback address (127.0.0.1, ::1, localhost); HOST is "${host}"`)
  }
  const mcpAllowedOrigins = (env.MCP_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean)
  for (const origin of mcpAllowedOrigins) {
    if (!/^https?:\/\/[^/]+$/.test(origin)) throw new ConfigError(`MCP_ALLOWED_ORIGINS must be origins like https://app.example.com, got "${origin}"`)
  }
  return {
    host,
    port,
    distDir: resolve(root, env.DIST_DIR || 'dist'),
    publicUrl,
    logLevel,
    limits,
    mcpAuth,
    mcpAllowedOrigins,
    auth,
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
