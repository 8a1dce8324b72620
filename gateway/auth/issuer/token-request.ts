/**
 * Decide a client_credentials token request (RFC 6749 §4.4): client
 * authentication (HTTP Basic or form fields), grant type, scopes within what
 * the client may have, and RFC 8707 resource indicators among this server's
 * resources. Pure: parameters in, a grant or an RFC 6749 §5.2 error out.
 */
import { isScope, type Scope } from '../../../build/contract/scopes.ts'
import { authenticateClient, type Client } from './clients-file.ts'

export type OAuthErrorCode =
  | 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope' | 'invalid_target'

export interface OAuthError {
  status: number
  error: OAuthErrorCode
  description: string
}

export interface TokenGrant {
  clientId: string
  scopes: Scope[]
  audience: string[]
}

export interface Resources {
  /** Resource indicators a token may be issued for (absolute URLs). */
  accepted: readonly string[]
  /** The audience when the request names none. */
  fallback: string
}

const SINGLE = ['grant_type', 'scope', 'client_id', 'client_secret']

export function decideTokenRequest(
  params: URLSearchParams,
  authorization: string | null,
  clients: readonly Client[],
  resources: Resources,
): { ok: true; grant: TokenGrant } | { ok: false; error: OAuthError } {
  const fail = (status: number, error: OAuthErrorCode, description: string) => ({ ok: false as const, error: { status, error, description } })
  for (const name of SINGLE) {
    if (params.getAll(name).length > 1) return fail(400, 'invalid_request', `The parameter "${name}" is repeated.`)
  }
  // Client authentication first: nothing else is said to an unknown caller.
  const basic = parseBasic(authorization)
  if (basic === 'malformed') return fail(401, 'invalid_client', 'The Basic authorization header is malformed.')
  if (basic && params.has('client_secret')) return fail(400, 'invalid_request', 'Use one client authentication method, not both.')
  const clientId = basic ? basic.id : params.get('client_id')
  const secret = basic ? basic.secret : params.get('client_secret')
  if (basic && params.has('client_id') && params.get('client_id') !== basic.id) return fail(400, 'invalid_request', 'client_id does not match the authenticated client.')
  if (!clientId || !secret) return fail(401, 'invalid_client', 'Client authentication is required (HTTP Basic or client_id and client_secret).')
  const client = authenticateClient(clients, clientId, secret)
  if (!client) return fail(401, 'invalid_client', 'Unknown client or wrong secret.')

  const grantType = params.get('grant_type')
  if (!grantType) return fail(400, 'invalid_request', 'grant_type is required.')
  if (grantType !== 'client_credentials') return fail(400, 'unsupported_grant_type', 'Only the client_credentials grant is supported.')

  const requested = (params.get('scope') ?? '').split(' ').filter(Boolean)
  const unknown = requested.filter((s) => !isScope(s))
  if (unknown.length) return fail(400, 'invalid_scope', `Unknown scope: ${unknown.join(' ')}.`)
  const denied = requested.filter((s) => !client.scopes.includes(s as Scope))
  if (denied.length) return fail(400, 'invalid_scope', `This client may not request: ${denied.join(' ')}.`)
  const scopes = requested.length ? [...new Set(requested as Scope[])] : [...client.scopes]

  const audience: string[] = []
  for (const resource of params.getAll('resource')) {
    if (!isAbsoluteWithoutFragment(resource)) return fail(400, 'invalid_target', 'A resource must be an absolute URI without a fragment.')
    const normalized = resource.replace(/\/+$/, '')
    if (!resources.accepted.includes(normalized)) return fail(400, 'invalid_target', `Tokens are not issued for the resource "${resource.slice(0, 200)}".`)
    if (!audience.includes(normalized)) audience.push(normalized)
  }
  if (!audience.length) audience.push(resources.fallback)
  return { ok: true, grant: { clientId: client.client_id, scopes, audience } }
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded, then joined by ":" and base64-encoded. */
function parseBasic(header: string | null): { id: string; secret: string } | 'malformed' | undefined {
  const match = header ? /^basic\s+(\S+)\s*$/i.exec(header.trim()) : null
  if (!header || !/^basic(\s|$)/i.test(header.trim())) return undefined
  if (!match) return 'malformed'
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 1) return 'malformed'
  try {
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '))
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) }
  } catch {
    return 'malformed'
  }
}

function isAbsoluteWithoutFragment(value: string): boolean {
  if (value.includes('#')) return false
  try {
    return /^https?:$/.test(new URL(value).protocol)
  } catch {
    return false
  }
}
