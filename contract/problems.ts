/**
 * The problem types of the API (RFC 9457). Each `type` is a URI reference,
 * `/problems/<name>`, documented in the OpenAPI document and on /docs/.
 * Shared by the gateway (which answers with them) and the OpenAPI generator.
 */
import { PROBLEMS_PREFIX } from './public-paths.ts'
export const PROBLEM_TYPES = {
  'invalid-parameter': {
    status: 400,
    title: 'Invalid query parameter',
    description: 'A query parameter is malformed or out of range; `errors` names each parameter and the valid range.',
  },
  'bad-request': {
    status: 400,
    title: 'Bad request',
    description: 'The request could not be understood: malformed URL, body or header.',
  },
  unauthorized: {
    status: 401,
    title: 'Authentication required',
    description:
      'The operation needs a bearer credential (OAuth access token or API key) and none, or an invalid one, was sent.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    description:
      'The credential is valid but lacks the scope the operation needs, or the request origin is not allowed.',
  },
  'not-found': { status: 404, title: 'Not found', description: 'No collection, item or document at this path.' },
  gone: {
    status: 410,
    title: 'Gone',
    description:
      'The item at this address was deleted (its file removed, made a draft or expired); `tombstone` names the change feed entry that recorded it. An address an item moved from answers 301 instead.',
  },
  'invalid-body': {
    status: 422,
    title: 'Invalid request body',
    description:
      'The request body is well-formed JSON, but a member of it is missing, unknown or out of range; `errors` names each member and what it must be.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    description: 'The path exists but not for this method; the Allow header lists the methods it supports.',
  },
  'not-acceptable': {
    status: 406,
    title: 'Not acceptable',
    description: 'The Accept header excludes every media type this resource is available in.',
  },
  'payload-too-large': {
    status: 413,
    title: 'Payload too large',
    description: 'The request body is larger than this endpoint accepts.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported media type',
    description: 'The request body is not in a media type this endpoint accepts.',
  },
  'headers-too-large': {
    status: 431,
    title: 'Request header fields too large',
    description: 'A request header, or all of them together, exceeds the size limit.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    description: 'The client sent too many requests; retry after the number of seconds in Retry-After.',
  },
  'internal-error': {
    status: 500,
    title: 'Internal server error',
    description: 'An unexpected error on our side; the request id in the response identifies it in our logs.',
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    description:
      'The content build or the token issuer cannot be reached right now, or the authorization server holds as many registered clients or authorization requests in progress as it may keep; retry after the seconds in Retry-After.',
  },
  timeout: {
    status: 503,
    title: 'Request timed out',
    description: 'The request took longer than the gateway allows; retry later.',
  },
} as const satisfies Record<string, { status: number; title: string; description: string }>

export type ProblemName = keyof typeof PROBLEM_TYPES

export function problemTypeUri(name: ProblemName): string {
  return `${PROBLEMS_PREFIX}/${name}`
}

/**
 * The most a problem body carries; the gateway cuts longer values (a path
 * near the header cap, say) so the answer stays within what the OpenAPI
 * document states.
 */
export const PROBLEM_LIMITS = {
  title: 100,
  detail: 1000,
  instance: 2000,
  errors: 20,
  parameter: 100,
  message: 600,
} as const

export interface ProblemBody {
  type: string
  title: string
  status: number
  detail: string
  instance?: string
  errors?: { parameter: string; message: string }[]
}

/**
 * Problem types answered with a schema of their own (build/openapi/taxonomy-schemas.ts) rather
 * than the shared `Problem`, whose `type` lists the types of API 1.0.0: a value added there would
 * be one its clients were promised never to see (a major change, docs/api-lifecycle.md).
 * `invalid-body` is answered only by the editor's share-link endpoint, which the document leaves out.
 */
export const OWN_SCHEMA_PROBLEMS: readonly ProblemName[] = ['gone', 'invalid-body']
