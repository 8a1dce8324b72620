/**
 * Discovery documents: RFC 9728 protected-resource metadata for the API and
 * for /mcp. Built from runtime config (the public URL), so they are served
 * by the gateway, not dist/. The embedded issuer's own metadata comes from
 * the OpenID provider (issuer/embedded-issuer.ts).
 */
import { MCP_PATH, PROTECTED_RESOURCE_PATH, type ResourcePath } from '../../contract/public-paths.ts'

/** RFC 9728 §3.1: the metadata URL of `<origin><path>` inserts the well-known segment after the origin. */
export function resourceMetadataUrl(publicUrl: string, path: ResourcePath): string {
  return `${publicUrl}${PROTECTED_RESOURCE_PATH}${path}`
}

/** Which protected resource a request path belongs to. */
export function resourcePathOf(pathname: string): ResourcePath {
  return pathname === MCP_PATH || pathname.startsWith(`${MCP_PATH}/`) ? MCP_PATH : ''
}

/** `scopes`: every scope of the API (the fixed ones and the collections' of the build served). */
export function protectedResourceMetadata(
  publicUrl: string,
  issuer: string,
  path: ResourcePath,
  scopes: readonly string[],
): Record<string, unknown> {
  return {
    resource: `${publicUrl}${path}`,
    authorization_servers: [issuer],
    scopes_supported: path === MCP_PATH ? ['mcp.tools.invoke'] : [...scopes],
    bearer_methods_supported: ['header'],
    resource_name: path === MCP_PATH ? 'Content API MCP server' : 'Content API',
    resource_documentation: `${publicUrl}/docs/`,
  }
}
