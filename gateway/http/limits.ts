/**
 * Resource limits of the gateway, in one place: how long a request may take,
 * how large a body the dynamic routes read, how many requests a client may
 * send to them, and which proxy headers name the client. Read from the
 * environment with safe defaults; `installLimits` mounts them on the app.
 */
import type { H3 } from 'h3'
import { bodyLimit } from './body-limit.ts'
import { rateLimit, RateLimiter } from './rate-limit.ts'
import { requestTimeout } from './timeout.ts'
import type { TrustProxy } from './client-ip.ts'
import { readSettings, type Settings } from '../../contract/settings.ts'
import { MCP_PATH, OAUTH_PREFIX, TOKEN_PATH } from '../../contract/public-paths.ts'

export interface LimitSettings {
  /** Longest time a handler may take before the caller gets a 503 timeout problem. */
  requestTimeoutMs: number
  /** Largest request body /mcp reads, in bytes. */
  mcpBodyBytes: number
  /** Largest request body the OAuth endpoints read (token, registration, revocation, sign-in forms), in bytes. */
  tokenBodyBytes: number
  /** Requests per minute per client (IP, and credential when one is sent) on /mcp and /oauth/*; 0 turns the limiter off. */
  rateLimitPerMinute: number
  /** Which proxy header, if any, names the client (only set behind a proxy that overwrites it). */
  trustProxy: TrustProxy
}

/** Paths that read a body and do per-request work worth limiting: /mcp, and the authorization server under /oauth/. */
export const DYNAMIC_PATHS = { mcp: MCP_PATH, token: TOKEN_PATH, oauth: `${OAUTH_PREFIX}/` } as const
const isOAuth = (path: string) => path.startsWith(DYNAMIC_PATHS.oauth)

/** The limits of the settings (REQUEST_TIMEOUT_MS, MCP_MAX_BODY_BYTES, TOKEN_MAX_BODY_BYTES, RATE_LIMIT_PER_MINUTE, TRUST_PROXY). */
export function limitsFrom(settings: Settings): LimitSettings {
  return {
    requestTimeoutMs: settings.REQUEST_TIMEOUT_MS,
    mcpBodyBytes: settings.MCP_MAX_BODY_BYTES,
    tokenBodyBytes: settings.TOKEN_MAX_BODY_BYTES,
    rateLimitPerMinute: settings.RATE_LIMIT_PER_MINUTE,
    trustProxy: settings.TRUST_PROXY,
  }
}

/** The schema's defaults. */
export const DEFAULT_LIMITS: LimitSettings = limitsFrom(readSettings({}, 'start'))

/**
 * Mount the limits as middleware, before any route runs: the timeout wraps
 * everything; the rate limiter guards the dynamic paths and the body limit
 * the routes that read a body (contract/body-routes.ts) only
 * (static reads are cheap and cached by the CDN).
 */
export function installLimits(app: H3, overrides: Partial<LimitSettings> = {}): LimitSettings {
  const limits = { ...DEFAULT_LIMITS, ...overrides }
  app.use(requestTimeout(limits.requestTimeoutMs))
  if (limits.rateLimitPerMinute > 0) {
    const limiter = new RateLimiter({ limit: limits.rateLimitPerMinute, windowSeconds: 60 })
    const isDynamic = (path: string) => path === DYNAMIC_PATHS.mcp || isOAuth(path)
    app.use(rateLimit(limiter, limits.trustProxy), {
      match: (event) => isDynamic(event.url.pathname) && event.req.method !== 'OPTIONS',
    })
  }
  app.use(bodyLimit({ MCP_MAX_BODY_BYTES: limits.mcpBodyBytes, TOKEN_MAX_BODY_BYTES: limits.tokenBodyBytes }))
  return limits
}
