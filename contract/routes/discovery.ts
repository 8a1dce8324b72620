/**
 * The documents of the build that describe this API for people, agents and
 * tools: the home page, this description, the reference page, llms.txt, the
 * API catalog and the problem type pages. All files of dist/.
 */
import { API_CATALOG_TYPE } from '../documents.ts'
import { PROBLEM_TYPES } from '../problems.ts'
import {
  API_CATALOG_PATH,
  DOCS_PATH,
  LLMS_FULL_PATH,
  LLMS_PATH,
  OPENAPI_PATH,
  PROBLEMS_PREFIX,
} from '../public-paths.ts'
import { ANONYMOUS, DOCUMENT_HEADERS, NOT_MODIFIED, problems } from './responses.ts'
import { READ, route, type Operation, type Route } from './route.ts'
import { arrayOf, text, uriReference, type Json } from './schema.ts'

export const DISCOVERY_TAG = 'Discovery'

/** A document of the build; `schema` only for JSON (pages and text files are described by their media type). */
function documentGet(operationId: string, summary: string, description: string, mediaType: string, schema?: Json) {
  return {
    operationId,
    tags: [DISCOVERY_TAG],
    summary,
    description,
    security: ANONYMOUS,
    responses: {
      '200': { description: summary, headers: DOCUMENT_HEADERS, content: { [mediaType]: schema ? { schema } : {} } },
      '304': NOT_MODIFIED,
      ...problems(400, 500, 503),
    },
  } satisfies Operation
}

function document(path: string, ...args: Parameters<typeof documentGet>): Route {
  return route({ path, methods: READ, served: 'file', operations: { get: documentGet(...args) } })
}

export const home = document(
  '/',
  'getHome',
  'Home page',
  "Links to the documents below; the API's resource identifier leads here.",
  'text/html',
)

export const openapi = document(
  OPENAPI_PATH,
  'getOpenApi',
  'This OpenAPI 3.1 description',
  'Generated at build time from the schemas that validate the content.',
  'application/json',
  { type: 'object' },
)

export const docs = document(
  DOCS_PATH,
  'getDocs',
  'API reference page',
  'This document rendered for people, with a quick start.',
  'text/html',
)

export const llms = document(
  LLMS_PATH,
  'getLlmsTxt',
  'llms.txt index',
  'An llmstxt.org index of the documentation and content for language models.',
  'text/plain',
)

export const llmsFull = document(
  LLMS_FULL_PATH,
  'getLlmsFullTxt',
  'Full agent reference',
  'The complete integration reference (endpoints, credentials, MCP tools, errors) followed by all published content as Markdown.',
  'text/plain',
)

const LINK_TARGETS = arrayOf(
  { type: 'object', required: ['href'], properties: { href: uriReference(), type: text(200), title: text(500) } },
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

const catalogGet = documentGet(
  'getApiCatalog',
  'API catalog (RFC 9727)',
  'Links to this API, its description, documentation and status, as an RFC 9264 linkset. HEAD answers with the same Link header.',
  API_CATALOG_TYPE,
  LINKSET,
)
const link = { description: 'Points to the API catalog: `rel="api-catalog"`.', required: true, schema: text(200) }
const catalogOk: Json = catalogGet.responses['200']
catalogOk.headers = { ...catalogGet.responses['200'].headers, Link: link }

export const apiCatalog = route({
  path: API_CATALOG_PATH,
  methods: READ,
  served: 'file',
  operations: {
    get: catalogGet,
    head: { ...catalogGet, operationId: 'headApiCatalog', summary: 'API catalog, headers only' },
  },
})

export const problemType = route({
  path: `${PROBLEMS_PREFIX}/{name}`,
  methods: READ,
  served: 'file',
  parameters: [{ name: 'name', in: 'path', required: true, schema: { enum: Object.keys(PROBLEM_TYPES) } }],
  operations: {
    get: {
      operationId: 'getProblemType',
      tags: [DISCOVERY_TAG],
      summary: 'Problem type description',
      description: 'Every problem `type` URI of this API dereferences to a short page describing it.',
      security: ANONYMOUS,
      responses: {
        '200': { description: 'The problem type page.', headers: DOCUMENT_HEADERS, content: { 'text/html': {} } },
        '304': NOT_MODIFIED,
        ...problems(400, 404, 500, 503),
      },
    },
  },
})
