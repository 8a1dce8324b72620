/**
 * The gateway's routes beyond the built content — credentials (auth) and
 * /mcp — wired from the settings, the same way for every runtime: `npm start`,
 * the dev server, the Netlify Function and the tests.
 */
import type { GatewayOptions } from './app.ts'
import type { ArtifactStore } from './artifacts.ts'
import { createAuth, type AuthRuntime } from './auth/auth.ts'
import { authPlugin } from './auth/plugin.ts'
import type { GatewayConfig } from './config.ts'
import type { Logger } from './log.ts'
import { mcpPlugin } from './mcp/plugin.ts'

export interface SetupRuntime {
  version: string
  logger: Logger
  /** The public origin when PUBLIC_URL is not set (known once listening, or per request). */
  fallbackUrl: () => string
  /** The clock of "upcoming" (default the system's). */
  now?: () => Date
  /** How the embedded server fetches Client ID Metadata Documents (default global fetch). */
  fetch?: AuthRuntime['fetch']
}

/** Options for createApp/startServer, less the store, host and port. */
export async function gatewayOptions(
  config: GatewayConfig,
  store: ArtifactStore,
  runtime: SetupRuntime,
): Promise<Omit<GatewayOptions, 'store'>> {
  const publicUrl = () => config.publicUrl ?? runtime.fallbackUrl()
  const auth = await createAuth(config.auth, {
    publicUrl,
    logger: runtime.logger,
    trustProxy: config.limits.trustProxy,
    ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
  })
  const mcp = mcpPlugin({
    store,
    version: runtime.version,
    auth: config.mcpAuth === 'off' ? undefined : auth,
    publicUrl,
    allowedOrigins: config.mcpAllowedOrigins,
    maxBodyBytes: config.limits.mcpBodyBytes,
    logger: runtime.logger,
    now: runtime.now,
  })
  return { version: runtime.version, logger: runtime.logger, limits: config.limits, plugins: [authPlugin(auth), mcp] }
}
