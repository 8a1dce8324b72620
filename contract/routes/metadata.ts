/**
 * The OAuth metadata documents the gateway serves: RFC 9728 protected
 * resource metadata of the API and of /mcp, RFC 8414 metadata of the issuer
 * in use (the embedded one's, or an external issuer's mirrored within these
 * bounds), and the embedded issuer's OpenID discovery document and keys.
 */
import { METADATA_LIMITS } from '../documents.ts'
import {
  AUTHORIZATION_SERVER_PATH,
  JWKS_PATH,
  MCP_PATH,
  OPENID_CONFIGURATION_PATH,
  PROTECTED_RESOURCE_PATH,
} from '../public-paths.ts'
import { DISCOVERY_TAG } from './discovery.ts'
import { ANONYMOUS, CORS_HEADERS, NOT_MODIFIED, problems } from './responses.ts'
import type { BudgetName } from '../budgets.ts'
import { READ, route, type Route } from './route.ts'
import { arrayOf, headerRef, text, uri, type Json } from './schema.ts'

const url = uri()
const strings = arrayOf(text(METADATA_LIMITS.item), METADATA_LIMITS.items)

const AUTHORIZATION_SERVER_METADATA = {
  type: 'object',
  required: ['issuer'],
  description:
    'RFC 8414 authorization server metadata (with the embedded issuer, also its OpenID Connect Discovery document).',
  properties: {
    issuer: url,
    authorization_endpoint: url,
    token_endpoint: url,
    jwks_uri: url,
    registration_endpoint: url,
    revocation_endpoint: url,
    userinfo_endpoint: url,
    grant_types_supported: strings,
    response_types_supported: strings,
    scopes_supported: strings,
    code_challenge_methods_supported: strings,
    token_endpoint_auth_methods_supported: strings,
    client_id_metadata_document_supported: { type: 'boolean' },
  },
}

const PROTECTED_RESOURCE_METADATA = {
  type: 'object',
  required: ['resource'],
  description: 'RFC 9728 protected resource metadata.',
  properties: {
    resource: uri(),
    authorization_servers: arrayOf(uri(), 10),
    scopes_supported: arrayOf(text(METADATA_LIMITS.item), METADATA_LIMITS.items),
    bearer_methods_supported: arrayOf({ enum: ['header', 'body', 'query'] }, 3),
    resource_documentation: uri(),
  },
}

const JWKS = {
  type: 'object',
  required: ['keys'],
  description: 'RFC 7517 JWK Set; present only when the embedded issuer is in use.',
  properties: {
    keys: arrayOf(
      { type: 'object', required: ['kty'], properties: { kty: { enum: ['EC', 'RSA', 'OKP'] }, kid: text(200) } },
      10,
    ),
  },
}

interface MetadataSpec {
  path: string
  operationId: string
  summary: string
  description: string
  schema: Json
  /** It exists in one configuration only (the embedded issuer): elsewhere a 404. */
  notFound?: true
  budgets?: readonly BudgetName[]
}

function metadata(spec: MetadataSpec): Route & { served: 'gateway' } {
  return route({
    path: spec.path,
    methods: READ,
    served: 'gateway',
    ...(spec.budgets && { budgets: spec.budgets }),
    operations: {
      get: {
        operationId: spec.operationId,
        tags: [DISCOVERY_TAG],
        summary: spec.summary,
        description: spec.description,
        security: ANONYMOUS,
        responses: {
          '200': {
            description: spec.summary,
            headers: { 'Cache-Control': headerRef('Cache-Control'), ...CORS_HEADERS },
            content: { 'application/json': { schema: spec.schema } },
          },
          '304': NOT_MODIFIED,
          ...problems(400, 500, 503, ...(spec.notFound ? [404] : [])),
        },
      },
    },
  })
}

export const authorizationServer = metadata({
  path: AUTHORIZATION_SERVER_PATH,
  operationId: 'getAuthorizationServerMetadata',
  summary: 'Authorization server metadata (RFC 8414) of the issuer in use',
  description:
    "Where to get tokens: the embedded issuer's own document, or an external issuer's mirrored (503 while it cannot be fetched, or when it exceeds the bounds of this schema).",
  schema: AUTHORIZATION_SERVER_METADATA,
})

export const openidConfiguration = metadata({
  path: OPENID_CONFIGURATION_PATH,
  operationId: 'getOpenIdConfiguration',
  summary: 'OpenID Connect Discovery of the embedded issuer',
  description:
    'The same document as the RFC 8414 metadata, where OpenID relying parties look for it; 404 with an external issuer.',
  schema: AUTHORIZATION_SERVER_METADATA,
  notFound: true,
})

export const protectedResource = metadata({
  path: PROTECTED_RESOURCE_PATH,
  operationId: 'getProtectedResourceMetadata',
  summary: 'Protected resource metadata (RFC 9728) of the REST API',
  description: 'Which authorization server issues tokens for the REST API, and the scopes it knows.',
  schema: PROTECTED_RESOURCE_METADATA,
})

export const protectedResourceMcp = metadata({
  path: `${PROTECTED_RESOURCE_PATH}${MCP_PATH}`,
  operationId: 'getMcpProtectedResourceMetadata',
  summary: 'Protected resource metadata (RFC 9728) of /mcp',
  description: 'Where the 401 of /mcp points agent hosts: the authorization server and the scopes of the MCP endpoint.',
  schema: PROTECTED_RESOURCE_METADATA,
})

export const jwks = metadata({
  path: JWKS_PATH,
  operationId: 'getJwks',
  summary: 'Public keys of the embedded issuer (JWK Set)',
  description:
    'The keys its tokens are signed with; 404 with an external issuer (its own JWKS is named in its metadata).',
  schema: JWKS,
  notFound: true,
  budgets: ['dynamic'],
})
