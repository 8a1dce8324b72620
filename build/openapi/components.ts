/**
 * Reusable parts of the OpenAPI document: the problem responses (one per
 * status, typed by contract/problems.ts), response headers and the shared
 * envelope schemas. The route table (contract/routes/) refers to them by name.
 */
import type { ContentModel } from '../../contract/model/model.ts'
import {
  OWN_SCHEMA_PROBLEMS,
  PROBLEM_LIMITS,
  PROBLEM_TYPES,
  problemTypeUri,
  type ProblemName,
} from '../../contract/problems.ts'
import { MAX_LIMIT, MAX_PAGE } from '../../contract/routes/parameters.ts'
import { MAX_URL_LENGTH } from '../../contract/patterns.ts'
import { CORS_HEADERS } from '../../contract/routes/responses.ts'
import {
  arrayOf,
  count,
  headerRef,
  instant,
  int32,
  schemaRef,
  text,
  uriReference,
  type Json,
  type SchemaObject,
} from '../../contract/routes/schema.ts'

/** The problem types the shared `Problem` schema and responses describe. */
const SHARED_PROBLEMS = (Object.keys(PROBLEM_TYPES) as ProblemName[]).filter((n) => !OWN_SCHEMA_PROBLEMS.includes(n))

const PROBLEM_MEDIA_TYPE = 'application/problem+json'

const PROBLEM: SchemaObject = {
  type: 'object',
  description: 'An RFC 9457 problem detail. `type` dereferences to a page describing the problem.',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: {
      type: 'string',
      format: 'uri-reference',
      enum: SHARED_PROBLEMS.map(problemTypeUri),
      description: 'The problem type, `/problems/<name>`.',
    },
    title: text(PROBLEM_LIMITS.title, {
      description: 'Short summary of the problem type; the same for every occurrence.',
    }),
    status: int32(400, 599),
    detail: text(PROBLEM_LIMITS.detail, { description: 'What went wrong with this request and how to fix it.' }),
    instance: text(PROBLEM_LIMITS.instance, {
      description: `The request path (its first ${PROBLEM_LIMITS.instance} characters).`,
    }),
    errors: arrayOf(
      {
        type: 'object',
        additionalProperties: false,
        required: ['parameter', 'message'],
        properties: { parameter: text(PROBLEM_LIMITS.parameter), message: text(PROBLEM_LIMITS.message) },
      },
      PROBLEM_LIMITS.errors,
      { description: 'One entry per invalid parameter.' },
    ),
  },
}

/** Problem names by status, in registry order. */
export function problemsByStatus(): Map<number, ProblemName[]> {
  const out = new Map<number, ProblemName[]>()
  for (const name of SHARED_PROBLEMS) {
    const { status } = PROBLEM_TYPES[name]
    out.set(status, [...(out.get(status) ?? []), name])
  }
  return out
}

const problemResponseName = (status: number) => `Problem${status}`

const header = (description: string, schema: Json, required = true): Json => ({ description, required, schema })

/** Response headers, by their real names. */
export const HEADERS: Record<string, Json> = {
  ETag: header(
    'Strong validator from the hash of the body; send it back in If-None-Match to get a 304.',
    text(64, { pattern: '^"[A-Za-z0-9_-]+"$' }),
  ),
  'Cache-Control': header('Caching policy of the answer.', text(200)),
  'X-Request-Id': header(
    'Identifies the request in the gateway logs; echoed when the caller sends a sane one.',
    text(64, { pattern: '^[A-Za-z0-9._:-]+$' }),
  ),
  'X-Total-Count': header('Number of items matching the query over all pages.', text(16, { pattern: '^[0-9]+$' })),
  Link: header('RFC 8288 links to the next and previous pages, when they exist.', text(2 * MAX_URL_LENGTH + 40), false),
  Allow: header('The methods this path supports.', text(100)),
  'Content-Language': header(
    "A multilingual site's answers: the locale the answer is written in (an item standing in for a missing translation says the default locale).",
    text(35),
    false,
  ),
  Vary: header(
    "A multilingual site's answers chosen by Accept-Language (no `locale` given): `Accept-Language`, so caches keep one answer per language.",
    text(100),
    false,
  ),
  'Retry-After': header('Seconds to wait before retrying.', text(10, { pattern: '^[0-9]+$' }), false),
  'WWW-Authenticate': header('RFC 6750 challenge; names the protected resource metadata document.', text(2000)),
  'Access-Control-Allow-Origin': header('CORS: every origin may read the answer.', { type: 'string', const: '*' }),
  RateLimit: header(
    'Quota left per policy (draft-ietf-httpapi-ratelimit-headers). On /mcp and /oauth/*: `"ip";r=<requests left>;t=<seconds to reset>`, and `"credential";…` when a credential was sent; on /oauth/register and /oauth/authorize also their hourly quota per address, `"registration";r=…;t=…` and `"authorization";r=…;t=…`; ' +
      'a 429 for failed authentications names its own policy first (`"failed-api-key-ip";r=0;t=…`). On answers the gateway computes (search, the change feed after a cursor, list queries no pre-rendered file answers): `"computed";r=…;t=…`. ' +
      'Absent on pre-rendered answers, and where the operator turned the budget off (RATE_LIMIT_PER_MINUTE=0, COMPUTED_RATE_LIMIT_PER_MINUTE=0, …).',
    text(500),
    false,
  ),
  'RateLimit-Policy': header(
    'The quotas: `"ip";q=<requests>;w=<seconds>` and `"credential";…` on /mcp and /oauth/*, `"registration";q=30;w=3600` on /oauth/register and `"authorization";q=60;w=3600` on /oauth/authorize (their defaults), `"computed";q=…;w=…` on computed answers; failed authentications have their own (`"failed-api-key-ip";q=20;w=900`, …). Absent where RateLimit is.',
    text(500),
    false,
  ),
}

/** The budgets' fields (gateway/http/rate-limit.ts), on every answer of a route with a budget. */
const RATE_LIMIT_HEADERS = {
  RateLimit: headerRef('RateLimit'),
  'RateLimit-Policy': headerRef('RateLimit-Policy'),
}

/** Extra headers a problem answer of this status always or sometimes carries. */
const PROBLEM_HEADERS: Record<number, string[]> = {
  401: ['WWW-Authenticate'],
  403: ['WWW-Authenticate'],
  405: ['Allow'],
  429: ['Retry-After', 'RateLimit', 'RateLimit-Policy'],
  503: ['Retry-After'],
}

function problemResponse(status: number, names: ProblemName[]): Json {
  // The budgets' fields come with every answer of a route with one, problems included (absent on pre-rendered answers).
  const headers: Json = {
    'Cache-Control': headerRef('Cache-Control'),
    'X-Request-Id': headerRef('X-Request-Id'),
    ...CORS_HEADERS,
    ...RATE_LIMIT_HEADERS,
  }
  for (const name of PROBLEM_HEADERS[status] ?? []) {
    // A 403 for a bad Origin has no challenge, so WWW-Authenticate is not required there.
    headers[name] = status === 403 ? { ...HEADERS[name], required: false } : headerRef(name)
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

export function sharedSchemas(model: ContentModel): Record<string, SchemaObject> {
  return {
    Problem: PROBLEM,
    ListMeta: {
      type: 'object',
      additionalProperties: false,
      required: ['limit', 'page', 'count', 'total', 'pages'],
      properties: {
        limit: int32(1, MAX_LIMIT),
        page: int32(1, MAX_PAGE),
        count: int32(0, MAX_LIMIT, { description: 'Items on this page.' }),
        total: count({ description: 'Items matching the query.' }),
        pages: count({ description: 'Pages at this limit.' }),
      },
    },
    ListLinks: {
      type: 'object',
      additionalProperties: false,
      required: ['self', 'next', 'prev'],
      properties: {
        self: uriReference({ description: 'Canonical form of this request.' }),
        next: uriReference({ type: ['string', 'null'] }),
        prev: uriReference({ type: ['string', 'null'] }),
      },
    },
    Health: {
      type: 'object',
      additionalProperties: false,
      required: ['status', 'version', 'build'],
      properties: {
        status: { const: 'ok' },
        version: text(64, {
          pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+([-+][0-9A-Za-z.+-]*)?$',
          description: 'Version of the API (semver), as in the `API-Version` header of every answer.',
        }),
        store: {
          enum: ['files', 'netlify-blobs', 'redis'],
          description:
            'Where this gateway keeps its runtime data (STATE_STORE): credentials, authorizations, webhooks. Reachable, or the answer is a 503.',
        },
        build: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'content_updated_at', 'counts', 'next_release_at'],
          properties: {
            id: text(64, { pattern: '^[0-9a-f]+$', description: 'Identifies the content build being served.' }),
            content_updated_at: instant({
              description:
                'The newest `updated_at` of any published item: what the content is as of (not when it was built; builds are deterministic).',
            }),
            counts: {
              type: 'object',
              additionalProperties: false,
              required: [...model.names],
              properties: Object.fromEntries(model.names.map((c) => [c, count()])),
            },
            next_release_at: instant({
              type: ['string', 'null'],
              description:
                'When a scheduled item is next released or an item next expires (null: nothing is scheduled). The build is rebuilt then (`npm start`; on Netlify the `publish-scheduled` function calls the build hook), and no answer is cached past it.',
            }),
          },
        },
      },
    },
    Liveness: {
      type: 'object',
      additionalProperties: false,
      required: ['status'],
      properties: { status: { const: 'live' } },
    },
  }
}

export function sharedResponses(): Record<string, Json> {
  const responses: Record<string, Json> = {
    NotModified: {
      description: 'The If-None-Match ETag matches: use the copy you have.',
      headers: { ETag: headerRef('ETag'), 'Cache-Control': headerRef('Cache-Control'), ...CORS_HEADERS },
    },
  }
  for (const [status, names] of problemsByStatus())
    responses[problemResponseName(status)] = problemResponse(status, names)
  return responses
}
