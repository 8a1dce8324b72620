/**
 * The OAuth scopes of the API and the roles API keys carry. One module so
 * the guard, the issuers, the metadata documents and the OpenAPI generator
 * all describe the same scopes the same way: the fixed ones, and one per
 * collection of the content model (`content.<name>.read` unless the
 * collection names its own), which the gateway learns from the build's
 * manifest. A content scope is known by its form, so the clients and people
 * files may name one whatever the build serves.
 */
import type { ContentModel } from './model/model.ts'

/** The scopes every site has, before the collections' (`api.read` covers every collection). */
const LEADING = {
  openid: 'Identify the caller with OpenID Connect (issuers that support it).',
  profile: "Read the caller's basic profile claims (issuers that support it).",
  email: "Read the caller's email address claim (issuers that support it).",
  'api.read': 'Read all published content through the REST API.',
} as const satisfies Record<string, string>

/** The scopes after the collections' (the preview's has a content scope's form: no collection may be named `preview`). */
const TRAILING = {
  'mcp.tools.invoke': 'Connect an agent to /mcp and call its tools, resources and prompts.',
  'content.preview.read':
    "Review what is not published: drafts and scheduled items through the preview API (/api/preview/…) and the MCP tools' include_drafts.",
} as const satisfies Record<string, string>

/** A collection's scope: `content.<name>.read`. */
export const CONTENT_SCOPE_PATTERN = '^content\\.[a-z0-9]+(?:-[a-z0-9]+)*\\.read$'
const CONTENT_SCOPE = new RegExp(CONTENT_SCOPE_PATTERN)

export type FixedScope = keyof typeof LEADING | keyof typeof TRAILING
/** A scope: a fixed one, or a collection's (`content.<name>.read`). */
export type Scope = FixedScope | `content.${string}.read`

/** Every scope of `model` with its description, in the order the documents list them. */
export function scopesOf(model: ContentModel): Record<string, string> {
  const content: Record<string, string> = {}
  for (const name of model.names) {
    const { scope } = model.collections[name]!
    const named = Object.values(model.collections).filter((c) => c.scope === scope)
    content[scope] ??= `Read ${named.map((c) => c.name.replaceAll('-', ' ')).join(', ')}.`
  }
  return { ...LEADING, ...content, ...TRAILING }
}

/** The scope names of `model`: the fixed ones and its collections', in order. */
export function scopeNames(model: ContentModel): Scope[] {
  return Object.keys(scopesOf(model)) as Scope[]
}

/** The fixed scopes, without any collection's: for a gateway serving no build yet. */
export const FIXED_SCOPES = [...Object.keys(LEADING), ...Object.keys(TRAILING)] as FixedScope[]

/** Roles an API key is created with, and the scopes each grants. */
export const ROLES = {
  'sandbox.read': { description: 'The public sandbox key: read-only REST access.', scopes: ['api.read'] },
  'agent.mcp': { description: 'An agent connecting to /mcp.', scopes: ['mcp.tools.invoke'] },
  'preview.read': {
    description: 'A reviewer: the preview API, drafts and scheduled items included (never the public routes’ answers).',
    scopes: ['content.preview.read'],
  },
} as const satisfies Record<string, { description: string; scopes: readonly Scope[] }>

export type Role = keyof typeof ROLES
export const ROLE_NAMES = Object.keys(ROLES) as Role[]

/** A fixed scope or a content scope by its form (whether a collection of the build has it or not). */
export function isScope(value: string): value is Scope {
  return Object.hasOwn(LEADING, value) || Object.hasOwn(TRAILING, value) || CONTENT_SCOPE.test(value)
}

/** What a scope lets its holder do, for the consent page: `model`'s words where it knows the scope. */
export function scopeDescription(name: string, model?: ContentModel): string | undefined {
  if (Object.hasOwn(LEADING, name)) return LEADING[name as keyof typeof LEADING]
  if (Object.hasOwn(TRAILING, name)) return TRAILING[name as keyof typeof TRAILING]
  if (!CONTENT_SCOPE.test(name)) return undefined
  return (model && scopesOf(model)[name]) ?? `Read the collection ${name.slice('content.'.length, -'.read'.length)}.`
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
