/** The discovery documents: this description, the reference page, llms.txt, the well-known documents and problem pages. */
import { PROBLEM_TYPES } from '../../contract/problems.ts'
import { arrayOf, text, uri, uriReference } from './bounded.ts'
import { CORS_HEADERS, headerRef, responseRef } from './components.ts'
import { problems } from './paths-content.ts'
import { ANONYMOUS } from './security.ts'

type Json = Record<string, unknown>

import { API_CATALOG_TYPE, METADATA_LIMITS } from '../../contract/documents.ts'
import {
  API_CATALOG_PATH,
  AUTHORIZATION_SERVER_PATH,
  DOCS_PATH,
  JWKS_PATH,
  LLMS_FULL_PATH,
  LLMS_PATH,
  MCP_PATH,
  OPENAPI_PATH,
  OPENID_CONFIGURATION_PATH,
  PROTECTED_RESOURCE_PATH,
} from '../../contract/public-paths.ts'

const docHeaders = { ETag: headerRef('ETag'), 'Cache-Control': headerRef('Cache-Control'), ...CORS_HEADERS }

/** A document of the build; `schema` only for JSON (pages and text files are described by their media type). */
function document(operationId: string, summary: string, description: string, mediaType: string, schema?: Json): Json {
  return {
    get: {
      operationId,
      tags: ['Discovery'],
      summary,
      description,
      security: ANONYMOUS,
      responses: {
        '200': { description: summary, headers: docHeaders, content: { [mediaType]: schema ? { schema } : {} } },
        '304': responseRef('NotModified'),
        ...problems(400, 500, 503),
      },
    },
  }
}

const LINK_TARGETS = arrayOf(
  {
    type: 'object',
    required: ['href'],
    properties: { href: uriReference(), type: text(200), title: text(500) },
  },
  50,
)

const LINKSET = {
  type: 'object',
  required: ['linkset'],
  properties: {
    linkset: arrayOf(
      {
        type: 'object',
        required: ['anchor'],
        properties: { anchor: uriReference() },
        additionalProperties: LINK_TARGETS,
      },
      10,
    ),
  },
}

/**
 * Metadata documents: ours, or an external issuer's that the gateway mirrors
 * only when it keeps to these bounds (gateway/auth/issuer-metadata.ts).
 */
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

function metadata(operationId: string, summary: string, description: string, schema: Json): Json {
  return {
    get: {
      operationId,
      tags: ['Discovery'],
      summary,
      description,
      security: ANONYMOUS,
      responses: {
        '200': {
          description: summary,
          headers: { 'Cache-Control': headerRef('Cache-Control'), ...CORS_HEADERS },
          content: { 'application/json': { schema } },
        },
        '304': responseRef('NotModified'),
        ...problems(400, 500, 503),
      },
    },
  }
}

/** The same operation, which may also answer 404 (a document that exists in one configuration only). */
function withNotFound(item: Json): Json {
  const get = item.get as Json
  return { get: { ...get, responses: { ...(get.responses as Json), ...problems(404) } } }
}

export function discoveryPaths(): Record<string, Json> {
  const catalog = document(
    'getApiCatalog',
    'API catalog (RFC 9727)',
    'Links to this API, its description, documentation and status, as an RFC 9264 linkset. HEAD answers with the same Link header.',
    API_CATALOG_TYPE,
    LINKSET,
  )
  const catalogGet = catalog.get as Json
  const link = { description: 'Points to the API catalog: `rel="api-catalog"`.', required: true, schema: text(200) }
  const catalogResponse = (catalogGet.responses as Record<string, Json>)['200']!
  catalogResponse.headers = { ...(catalogResponse.headers as Json), Link: link }
  return {
    '/': document(
      'getHome',
      'Home page',
      "Links to the documents below; the API's resource identifier leads here.",
      'text/html',
    ),
    [OPENAPI_PATH]: document(
      'getOpenApi',
      'This OpenAPI 3.1 description',
      'Generated at build time from the schemas that validate the content.',
      'application/json',
      { type: 'object' },
    ),
    [DOCS_PATH]: document(
      'getDocs',
      'API reference page',
      'This document rendered for people, with a quick start.',
      'text/html',
    ),
    [LLMS_PATH]: document(
      'getLlmsTxt',
      'llms.txt index',
      'An llmstxt.org index of the documentation and content for language models.',
      'text/plain',
    ),
    [LLMS_FULL_PATH]: document(
      'getLlmsFullTxt',
      'Full agent reference',
      'The complete integration reference (endpoints, credentials, MCP tools, errors) followed by all published content as Markdown.',
      'text/plain',
    ),
    [API_CATALOG_PATH]: {
      get: catalogGet,
      head: { ...catalogGet, operationId: 'headApiCatalog', summary: 'API catalog, headers only' },
    },
    '/problems/{name}': {
      get: {
        operationId: 'getProblemType',
        tags: ['Discovery'],
        summary: 'Problem type description',
        description: 'Every problem `type` URI of this API dereferences to a short page describing it.',
        security: ANONYMOUS,
        parameters: [{ name: 'name', in: 'path', required: true, schema: { enum: Object.keys(PROBLEM_TYPES) } }],
        responses: {
          '200': { description: 'The problem type page.', headers: docHeaders, content: { 'text/html': {} } },
          '304': responseRef('NotModified'),
          ...problems(400, 404, 500, 503),
        },
      },
    },
    [AUTHORIZATION_SERVER_PATH]: metadata(
      'getAuthorizationServerMetadata',
      'Authorization server metadata (RFC 8414) of the issuer in use',
      "Where to get tokens: the embedded issuer's own document, or an external issuer's mirrored (503 while it cannot be fetched, or when it exceeds the bounds of this schema).",
      AUTHORIZATION_SERVER_METADATA,
    ),
    [OPENID_CONFIGURATION_PATH]: withNotFound(
      metadata(
        'getOpenIdConfiguration',
        'OpenID Connect Discovery of the embedded issuer',
        'The same document as the RFC 8414 metadata, where OpenID relying parties look for it; 404 with an external issuer.',
        AUTHORIZATION_SERVER_METADATA,
      ),
    ),
    [PROTECTED_RESOURCE_PATH]: metadata(
      'getProtectedResourceMetadata',
      'Protected resource metadata (RFC 9728) of the REST API',
      'Which authorization server issues tokens for the REST API, and the scopes it knows.',
      PROTECTED_RESOURCE_METADATA,
    ),
    [JWKS_PATH]: withNotFound(
      metadata(
        'getJwks',
        'Public keys of the embedded issuer (JWK Set)',
        'The keys its tokens are signed with; 404 with an external issuer (its own JWKS is named in its metadata).',
        JWKS,
      ),
    ),
    [`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`]: metadata(
      'getMcpProtectedResourceMetadata',
      'Protected resource metadata (RFC 9728) of /mcp',
      'Where the 401 of /mcp points agent hosts: the authorization server and the scopes of the MCP endpoint.',
      PROTECTED_RESOURCE_METADATA,
    ),
  }
}
