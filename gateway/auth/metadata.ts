/**
 * Discovery documents: RFC 9728 protected-resource metadata for the API and
 * for /mcp, and RFC 8414 metadata of the built-in issuer. Built from runtime
 * config (the public URL), so they are served by the gateway, not dist/.
 */
import { SCOPE_NAMES } from './scopes.ts'

/** The two protected resources: the API as a whole and the MCP endpoint. */
export const RESOURCE_PATHS = ['', '/mcp'] as const
export type ResourcePath = (typeof RESOURCE_PATHS)[number]

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource'
export const AUTHORIZATION_SERVER_PATH = '/.well-known/oauth-authorization-server'
export const TOKEN_PATH = '/oauth/token'
export const JWKS_PATH = '/oauth/jwks.json'

/** RFC 9728 §3.1: the metadata URL of `<origin><path>` inserts the well-known segment after the origin. */
export function resourceMetadataUrl(publicUrl: string, path: ResourcePath): string {
  return `${publicUrl}${PROTECTED_RESOURCE_PATH}${path}`
}

/** Which protected resource a request path belongs to. */
export function resourcePathOf(pathname: string): ResourcePath {
  return pathname === '/mcp' || pathname.startsWith('/mcp/') ? '/mcp' : ''
}

export function protectedResourceMetadata(publicUrl: string, issuer: string, path: ResourcePath): Record<string, unknown> {
  return {
    resource: `${publicUrl}${path}`,
    authorization_servers: [issuer],
    scopes_supported: path === '/mcp' ? ['mcp.tools.invoke'] : SCOPE_NAMES,
    bearer_methods_supported: ['header'],
    resource_name: path === '/mcp' ? 'Content API MCP server' : 'Content API',
    resource_documentation: `${publicUrl}/docs/`,
  }
}

export function builtInIssuerMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    token_endpoint: `${issuer}${TOKEN_PATH}`,
    jwks_uri: `${issuer}${JWKS_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: SCOPE_NAMES,
    // No authorization endpoint: client_credentials needs none.
    response_types_supported: [],
    service_documentation: `${issuer}/docs/`,
  }
}
