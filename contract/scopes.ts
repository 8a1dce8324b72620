/**
 * The OAuth scopes of the API and the roles API keys carry. One module so
 * the guard, the issuers, the metadata documents and the OpenAPI generator
 * all describe the same nine scopes the same way.
 */
export const SCOPES = {
  openid: 'Identify the caller with OpenID Connect (issuers that support it).',
  profile: "Read the caller's basic profile claims (issuers that support it).",
  email: "Read the caller's email address claim (issuers that support it).",
  'api.read': 'Read all published content through the REST API.',
  'content.blog.read': 'Read blog posts.',
  'content.case-studies.read': 'Read case studies.',
  'content.webinars.read': 'Read webinars.',
  'content.events.read': 'Read events.',
  'mcp.tools.invoke': 'Connect an agent to /mcp and call its tools, resources and prompts.',
} as const satisfies Record<string, string>

export type Scope = keyof typeof SCOPES
export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[]

/** Roles an API key is created with, and the scopes each grants. */
export const ROLES = {
  'sandbox.read': { description: 'The public sandbox key: read-only REST access.', scopes: ['api.read'] },
  'agent.mcp': { description: 'An agent connecting to /mcp.', scopes: ['mcp.tools.invoke'] },
} as const satisfies Record<string, { description: string; scopes: readonly Scope[] }>

export type Role = keyof typeof ROLES
export const ROLE_NAMES = Object.keys(ROLES) as Role[]

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value)
}

export function isRole(value: string): value is Role {
  return Object.hasOwn(ROLES, value)
}

export function scopesOfRole(role: Role): readonly Scope[] {
  return ROLES[role].scopes
}

/** Scopes from a `scope` claim (space-separated) or an `scp` claim (array or string). */
export function scopesFromClaims(claims: Record<string, unknown>): string[] {
  const out = new Set<string>()
  for (const value of [claims.scope, claims.scp]) {
    const list = typeof value === 'string' ? value.split(' ') : Array.isArray(value) ? value : []
    for (const s of list) if (typeof s === 'string' && s !== '') out.add(s)
  }
  return [...out]
}
