/**
 * DNS-rebinding protection for /mcp (MCP transport security). A page on
 * evil.example whose name resolves to 127.0.0.1 reaches a local gateway with
 * `Host: evil.example` and `Origin: http://evil.example`; same-origin checks
 * alone pass that, so both headers are checked against what this gateway is
 * known as: loopback names, its public URL and the configured origins.
 */
export interface OriginPolicy {
  /** Public origin of the gateway (PUBLIC_URL, else the address it listens on); a function when known only once listening. */
  publicUrl?: string | (() => string | undefined)
  /** Extra browser origins allowed to call /mcp (MCP_ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[]
}

export type OriginVerdict = { ok: true } | { ok: false; reason: string }

const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]'])

/** True for localhost, ::1 and any 127.0.0.0/8 address (what the OS routes to this machine only). */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '')
  if (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost')) return true
  const octets = name.split('.')
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => /^(25[0-5]|2[0-4]\d|1?\d?\d)$/.test(o))
}

/** True when the Host, and the Origin if any, name this machine. */
export function isLoopbackRequest(headers: Headers): boolean {
  const hostname = hostnameOf(headers.get('host') ?? '')
  const origin = headers.get('origin')
  const originHost = origin === null ? undefined : originOf(origin)
  return (
    hostname !== undefined &&
    isLoopbackHostname(hostname) &&
    (origin === null || (originHost !== undefined && isLoopbackHostname(new URL(originHost).hostname)))
  )
}

/** Hostname of a Host header value (`name`, `name:port`, `[v6]:port`); undefined when malformed. */
function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname
  } catch {
    return undefined
  }
}

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined
  } catch {
    return undefined
  }
}

interface Allowed {
  origins: Set<string>
  hosts: Set<string>
}

function allowedBy(publicUrl: string | undefined, extra: readonly string[]): Allowed {
  const origins = new Set(
    [publicUrl, ...extra].map((o) => (o ? originOf(o) : undefined)).filter((o) => o !== undefined),
  )
  return { origins, hosts: new Set([...origins].map((o) => new URL(o).host)) }
}

export function createOriginGuard(policy: OriginPolicy): (headers: Headers) => OriginVerdict {
  const publicUrl =
    typeof policy.publicUrl === 'function' ? policy.publicUrl : () => policy.publicUrl as string | undefined
  let cached: { key: string | undefined; allowed: Allowed } | undefined
  const allowed = (): Allowed => {
    const key = publicUrl()
    if (!cached || cached.key !== key) cached = { key, allowed: allowedBy(key, policy.allowedOrigins ?? []) }
    return cached.allowed
  }

  return (headers) => {
    const { origins, hosts } = allowed()
    const host = headers.get('host') ?? ''
    const hostname = hostnameOf(host)
    if (!hostname || !(isLoopbackHostname(hostname) || hosts.has(host.toLowerCase()))) {
      return {
        ok: false,
        reason: `The Host header "${host.slice(0, 100)}" is not a name this gateway answers to on /mcp.`,
      }
    }
    const origin = headers.get('origin')
    // No Origin: not a browser page (agents, CLIs, server-side clients).
    if (origin === null) return { ok: true }
    const normalised = originOf(origin)
    if (normalised && (isLoopbackHostname(new URL(normalised).hostname) || origins.has(normalised))) return { ok: true }
    return { ok: false, reason: `Requests from the origin "${origin.slice(0, 100)}" are not allowed on /mcp.` }
  }
}
