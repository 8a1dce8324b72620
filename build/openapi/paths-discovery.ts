/** The discovery documents: this description, the reference page, llms.txt, the well-known documents and problem pages. */
import { PROBLEM_TYPES } from '../contract/problems.ts'
import { headerRef, responseRef } from './components.ts'
import { problems } from './paths-content.ts'

type Json = Record<string, unknown>

import { API_CATALOG_TYPE } from '../contract/documents.ts'
import {
  API_CATALOG_PATH, AUTHORIZATION_SERVER_PATH, DOCS_PATH, JWKS_PATH, LLMS_FULL_PATH, LLMS_PATH, MCP_PATH, OPENAPI_PATH, OPENID_CONFIGURATION_PATH,
  PROTECTED_RESOURCE_PATH,
} from '../contract/public-paths.ts'


const docHeaders = { ETag: headerRef('ETag'), 'Cache-Control': headerRef('CacheControl') }

function document(operationId: string, summary: string, description: string, mediaType: string, schema: Json): Json {
  return {
    get: {
      operationId,
      tags: ['Discovery'],
      summary,
      description,
      security: [],
      responses: {
        '200': { description: summary, headers: docHeaders, content: { [mediaType]: { schema } } },
        '304': responseRef('NotModified'),
        ...problems(500, 503),
      },
    },
  }
}

const LINK_TARGETS = {
  type: 'array',
  items: {
    type: 'object',
    required: ['href'],
    properties: { href: { type: 'string', format: 'uri-reference' }, type: { type: 'string' }, title: { type: 'string' } },
  },
}

const LINKSET = {
  type: 'object',
  required: ['linkset'],
  properties: {
    linkset: {
      type: 'array',
      items: {
        type: 'object',
        required: ['anchor'],
        properties: { anchor: { type: 'string', format: 'uri-reference' } },
        additionalProperties: LINK_TARGETS,
      },
    },
  },
}

const uri = { type: 'string', format: 'uri' }
const strings = { type: 'array', items: { type: 'string' } }
const AUTHORIZATION_SERVER_METADATA = {
  type: 'object',
  required: ['issuer'],
  description: 'RFC 8414 authorization server metadata (with the embedded issuer, also its OpenID Connect Discovery document).',
  properties: {
    issuer: uri,
    authorization_endpoint: uri,
    token_endpoint: uri,
    jwks_uri: uri,
    registration_endpoint: uri,
    revocation_endpoint: uri,
    userinfo_endpoint: uri,
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
    resource: { type: 'string', format: 'uri' },
    authorization_servers: { type: 'array', items: { type: 'string', format: 'uri' } },
    scopes_supported: { type: 'array', items: { type: 'string' } },
    bearer_methods_supported: { type: 'array', items: { type: 'string' } },
    resource_documentation: { type: 'string', format: 'uri' },
  },
}

const JWKS = {
  type: 'object',
  required: ['keys'],
  description: 'RFC 7517 JWK Set; present only when the embedded issuer is in use.',
  properties: { keys: { type: 'array', items: { type: 'object', required: ['kty'], properties: { kty: { type: 'string' }, kid: { type: 'string' } } } } },
}

function metadata(operationId: string, summary: string, schema: Json): Json {
  return {
    get: {
      operationId,
      tags: ['Discovery'],
      summary,
      security: [],
      responses: {
        '200': { description: summary, headers: { 'Cache-Control': headerRef('CacheControl') }, content: { 'application/json': { schema } } },
        '304': responseRef('NotModified'),
        ...problems(500, 503),
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
    'getApiCatalog', 'API catalog (RFC 9727)',
    'Links to this API, its description, documentation and status, as an RFC 9264 linkset. HEAD answers with the same Link header.',
    API_CATALOG_TYPE, LINKSET,
  )
  const catalogGet = catalog.get as Json
  const link = { description: 'Points to the API catalog: `rel="api-catalog"`.', required: true, schema: { type: 'string' } }
  const catalogResponse = (catalogGet.responses as Record<string, Json>)['200']!
  catalogResponse.headers = { ...(catalogResponse.headers as Json), Link: link }
  return {
    '/': document('getHome', 'Home page', 'Links to the documents below; the API\'s resource identifier leads here.', 'text/html', { type: 'string' }),
    [OPENAPI_PATH]: document('getOpenApi', 'This OpenAPI 3.1 description', 'Generated at build time from the schemas that validate the content.', 'application/json', { type: 'object' }),
    [DOCS_PATH]: document('getDocs', 'API reference page', 'This document rendered for people, with a quick start.', 'text/html', { type: 'string' }),
    [LLMS_PATH]: document('getLlmsTxt', 'llms.txt index', 'An llmstxt.org index of the documentation and content for language models.', 'text/plain', { type: 'string' }),
    [LLMS_FULL_PATH]: document('getLlmsFullTxt', 'Full agent reference', 'The complete integration reference (endpoints, credentials, MCP tools, errors) followed by all published content as Markdown.', 'text/plain', { type: 'string' }),
    [API_CATALOG_PATH]: { get: catalogGet, head: { ...catalogGet, operationId: 'headApiCatalog', summary: 'API catalog, headers only' } },
    '/problems/{name}': {
      get: {
        operationId: 'getProblemType',
        tags: ['Discovery'],
        summary: 'Problem type description',
        description: 'Every problem `type` URI of this API dereferences to a short page describing it.',
        security: [],
        parameters: [{ name: 'name', in: 'path', required: true, schema: { enum: Object.keys(PROBLEM_TYPES) } }],
        responses: {
          '200': { description: 'The problem type page.', headers: docHeaders, content: { 'text/html': { schema: { type: 'string' } } } },
          '304': responseRef('NotModified'),
          ...problems(404),
        },
      },
    },
    [AUTHORIZATION_SERVER_PATH]: metadata('getAuthorizationServerMetadata', 'Authorization server metadata (RFC 8414) of the issuer in use', AUTHORIZATION_SERVER_METADATA),
    [OPENID_CONFIGURATION_PATH]: withNotFound(metadata('getOpenIdConfiguration', 'OpenID Connect Discovery of the embedded issuer (the same document; 404 with an external issuer)', AUTHORIZATION_SERVER_METADATA)),
    [PROTECTED_RESOURCE_PATH]: metadata('getProtectedResourceMetadata', 'Protected resource metadata (RFC 9728) of the REST API', PROTECTED_RESOURCE_METADATA),
    [JWKS_PATH]: metadata('getJwks', 'Public keys of the embedded issuer (JWK Set)', JWKS),
    [`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`]: metadata('getMcpProtectedResourceMetadata', 'Protected resource metadata (RFC 9728) of /mcp', PROTECTED_RESOURCE_METADATA),
  }
}
