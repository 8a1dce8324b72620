/**
 * The paths clients, agents and deployed rules already know. Everything else
 * (gateway, build, tests) reads them from the table, so this is the one place
 * that says what they are: moving one is a breaking change made here on purpose.
 */
import { describe, expect, it } from 'vitest'
import * as paths from '../../contract/public-paths.ts'

describe('the public paths', () => {
  it('are the published ones', () => {
    expect({
      health: paths.HEALTH_PATH,
      search: paths.SEARCH_PATH,
      changes: paths.CHANGES_PATH,
      mcp: paths.MCP_PATH,
      openapi: paths.OPENAPI_PATH,
      docs: paths.DOCS_PATH,
      llms: paths.LLMS_PATH,
      llmsFull: paths.LLMS_FULL_PATH,
      catalog: paths.API_CATALOG_PATH,
      protectedResource: paths.PROTECTED_RESOURCE_PATH,
      authorizationServer: paths.AUTHORIZATION_SERVER_PATH,
      openidConfiguration: paths.OPENID_CONFIGURATION_PATH,
      authorize: paths.AUTHORIZE_PATH,
      token: paths.TOKEN_PATH,
      jwks: paths.JWKS_PATH,
      register: paths.REGISTRATION_PATH,
      revoke: paths.REVOCATION_PATH,
      userinfo: paths.USERINFO_PATH,
      netlifyFunction: paths.FUNCTION_PREFIX,
    }).toEqual({
      health: '/api/health',
      search: '/api/search',
      changes: '/api/changes',
      mcp: '/mcp',
      openapi: '/openapi.json',
      docs: '/docs/',
      llms: '/llms.txt',
      llmsFull: '/llms-full.txt',
      catalog: '/.well-known/api-catalog',
      protectedResource: '/.well-known/oauth-protected-resource',
      authorizationServer: '/.well-known/oauth-authorization-server',
      openidConfiguration: '/.well-known/openid-configuration',
      authorize: '/oauth/authorize',
      token: '/oauth/token',
      jwks: '/oauth/jwks.json',
      register: '/oauth/register',
      revoke: '/oauth/revoke',
      userinfo: '/oauth/userinfo',
      netlifyFunction: '/.netlify/functions/gateway',
    })
  })
})
