/**
 * Reusable parts of the OpenAPI document: the problem responses (one per
 * status, typed by build/contract/problems.ts), response headers, query
 * parameters and the shared envelope schemas.
 */
import type { SchemaObject } from 'ajv'
import { COLLECTION_NAMES } from '../contract/collections.ts'
import { PROBLEM_TYPES, problemTypeUri, type ProblemName } from '../contract/problems.ts'
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PAGE } from '../contract/query.ts'
import { SLUG_PATTERN, TAG_PATTERN } from '../contract/patterns.ts'

type Json = Record<string, unknown>

export const PROBLEM_MEDIA_TYPE = 'application/problem+json'

const PROBLEM: SchemaObject = {
  type: 'object',
  description: 'An RFC 9457 problem detail. `type` dereferences to a page describing the problem.',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', format: 'uri-reference', description: 'The problem type, `/problems/<name>`.' },
    title: { type: 'string', description: 'Short summary of the problem type; the same for every occurrence.' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string', description: 'What went wrong with this request and how to fix it.' },
    instance: { type: 'string', description: 'The request path.' },
    errors: {
      type: 'array',
      description: 'One entry per invalid parameter.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['parameter', 'message'],
        properties: { parameter: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
}

/** Problem names by status, in registry order. */
export function problemsByStatus(): Map<number, ProblemName[]> {
  const out = new Map<number, ProblemName[]>()
  for (const [name, { status }] of Object.entries(PROBLEM_TYPES)) out.set(status, [...(out.get(status) ?? []), name as ProblemName])
  return out
}

export const problemResponseName = (status: number) => `Problem${status}`

const header = (description: string, schema: Json, required = true): Json => ({ description, required, schema })

export const HEADERS: Record<string, Json> = {
  ETag: header('Strong validator from the hash of the body; send it back in If-None-Match to get a 304.', { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$' }),
  CacheControl: header('Caching policy of the answer.', { type: 'string' }),
  XRequestId: header('Identifies the request in the gateway logs; echoed when the caller sends a sane one.', { type: 'string' }),
  XTotalCount: header('Number of items matching the query over all pages.', { type: 'string', pattern: '^[0-9]+$' }),
  Link: header('RFC 8288 links to the next and previous pages, when they exist.', { type: 'string' }, false),
  Allow: header('The methods this path supports.', { type: 'string' }),
  RetryAfter: header('Seconds to wait before retrying.', { type: 'string' }, false),
  WWWAuthenticate: header('RFC 6750 challenge; names the protected resource metadata document.', { type: 'string' }),
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` })
export const headerRef = (name: string) => ref('headers', name)
export const responseRef = (name: string) => ref('responses', name)
export const schemaRef = (name: string) => ref('schemas', name)
export const parameterRef = (name: string) => ref('parameters', name)

/** Extra headers a problem answer of this status always or sometimes carries. */
const PROBLEM_HEADERS: Record<number, string[]> = { 401: ['WWWAuthenticate'], 403: ['WWWAuthenticate'], 405: ['Allow'], 429: ['RetryAfter'], 503: ['RetryAfter'] }

function problemResponse(status: number, names: ProblemName[]): Json {
  const headers: Json = { 'Cache-Control': headerRef('CacheControl'), 'X-Request-Id': headerRef('XRequestId') }
  for (const name of PROBLEM_HEADERS[status] ?? []) {
    // A 403 for a bad Origin has no challenge, so WWW-Authenticate is not required there.
    headers[name === 'WWWAuthenticate' ? 'WWW-Authenticate' : name === 'RetryAfter' ? 'Retry-After' : name] =
      status === 403 ? { ...HEADERS[name], required: false } : headerRef(name)
  }
  return {
    description: names.map((n) => `\`${problemTypeUri(n)}\`: ${PROBLEM_TYPES[n].description}`).join('\n\n'),
    headers,
    content: {
      [PROBLEM_MEDIA_TYPE]: {
        schema: {
          allOf: [schemaRef('Problem')],
          properties: { type: { enum: names.map(problemTypeUri) }, status: { const: status } },
        },
      },
    },
  }
}

export const PARAMETERS: Record<string, Json> = {
  limit: {
    name: 'limit', in: 'query', required: false,
    description: `Items per page, an integer from 1 to ${MAX_LIMIT}. Given once; anything else is a 400.`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
  },
  page: {
    name: 'page', in: 'query', required: false,
    description: `Page number, 1-based, up to ${MAX_PAGE}. A page past the end is an empty list, not an error.`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
  },
  tag: {
    name: 'tag', in: 'query', required: false,
    description: 'Only items with this tag.',
    schema: { type: 'string', pattern: TAG_PATTERN, maxLength: 50 },
  },
  slug: {
    name: 'slug', in: 'path', required: true,
    description: 'The item slug, as in the list.',
    schema: { type: 'string', pattern: SLUG_PATTERN, maxLength: 120 },
  },
  ifNoneMatch: {
    name: 'If-None-Match', in: 'header', required: false,
    description: 'An ETag from an earlier answer; a match gives 304 Not Modified without a body.',
    schema: { type: 'string' },
  },
}

export const SHARED_SCHEMAS: Record<string, SchemaObject> = {
  Problem: PROBLEM,
  ListMeta: {
    type: 'object', additionalProperties: false, required: ['limit', 'page', 'count', 'total', 'pages'],
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
      page: { type: 'integer', minimum: 1, maximum: MAX_PAGE },
      count: { type: 'integer', minimum: 0, maximum: MAX_LIMIT, description: 'Items on this page.' },
      total: { type: 'integer', minimum: 0, description: 'Items matching the query.' },
      pages: { type: 'integer', minimum: 0, description: 'Pages at this limit.' },
    },
  },
  ListLinks: {
    type: 'object', additionalProperties: false, required: ['self', 'next', 'prev'],
    properties: {
      self: { type: 'string', format: 'uri-reference', description: 'Canonical form of this request.' },
      next: { type: ['string', 'null'], format: 'uri-reference' },
      prev: { type: ['string', 'null'], format: 'uri-reference' },
    },
  },
  Health: {
    type: 'object', additionalProperties: false, required: ['status', 'version', 'build'],
    properties: {
      status: { const: 'ok' },
      version: { type: 'string', description: 'Version of the gateway.' },
      build: {
        type: 'object', additionalProperties: false, required: ['id', 'built_at', 'counts'],
        properties: {
          id: { type: 'string', description: 'Identifies the content build being served.' },
          built_at: { type: 'string', format: 'date-time', description: 'Latest update of any published item.' },
          counts: {
            type: 'object', additionalProperties: false, required: [...COLLECTION_NAMES],
            properties: Object.fromEntries(COLLECTION_NAMES.map((c) => [c, { type: 'integer', minimum: 0 }])),
          },
        },
      },
    },
  },
}

export function sharedResponses(): Record<string, Json> {
  const responses: Record<string, Json> = {
    NotModified: {
      description: 'The If-None-Match ETag matches: use the copy you have.',
      headers: { ETag: headerRef('ETag'), 'Cache-Control': headerRef('CacheControl') },
    },
  }
  for (const [status, names] of problemsByStatus()) responses[problemResponseName(status)] = problemResponse(status, names)
  return responses
}
