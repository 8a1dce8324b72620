/**
 * Discovery documents: RFC 9728 protected-resource metadata for the API and
 * for /mcp, and RFC 8414 metadata of the built-in issuer. Built from runtime
 * config (the public URL), so they are served by the gateway, not dist/.
 */
import { JWKS_PATH, MCP_PATH, PROTECTED_RESOURCE_PATH, TOKEN_PATH, type ResourcePath } from '../../build/contract/public-paths.ts'
import { SCOPE_NAMES } from '../../build/contract/scopes.ts'

/** RFC 9728 §3.1: the metadata URL of `<origin><path>` inserts the well-known segment after the origin. */
export function resourceMetadataUrl(publicUrl: string, path: ResourcePath): string {
  return `${publicUrl}${PROTECTED_RESOURCE_PATH}${path}`
}

/** Which protected resource a request path belongs to. */
export function resourcePathOf(pathname: string): ResourcePath {
  return pathname === MCP_PATH || pathname.startsWith(`${MCP_PATH}/`) ? MCP_PATH : ''
}

export function protectedResourceMetadata(publicUrl: string, issuer: string, path: ResourcePath): Record<string, unknown> {
  return {
    resource: `${publicUrl}${path}`,
    authorization_servers: [issuer],
    scopes_supported: path === MCP_PATH ? ['mcp.tools.invoke'] : SCOPE_NAMES,
    bearer_methods_supported: ['header'],
    resource_name: path === MCP_PATH ? 'Content API MCP server' : 'Content API',
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
