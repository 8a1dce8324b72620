/**
 * RFC 9457 problem answers, built one way. Handlers throw {@link problem}(…)
 * (or {@link unavailable}), an h3 HTTPError carrying the problem; every
 * answer — the app's error hook, the Netlify function that cannot start, the
 * requests Node's parser refuses — is made by {@link toProblem} and
 * {@link problemHeaders}: `application/problem+json` with the base headers,
 * never a stack trace.
 */
import { HTTPError } from 'h3'
import { baseHeaderRecord, CACHE, PROBLEM_TYPE } from '../../contract/headers.ts'
import {
  PROBLEM_LIMITS,
  PROBLEM_TYPES,
  problemTypeUri,
  type ProblemBody,
  type ProblemName,
} from '../../contract/problems.ts'

export interface ProblemOptions {
  detail: string
  errors?: ProblemBody['errors']
  headers?: Record<string, string>
  /** Override the type's default status (e.g. 503 for a timeout). */
  status?: number
  /**
   * A 5xx the code answering has already logged as the operator needs it
   * (a ceiling reached, once): the app's error hook does not log it again
   * at every request.
   */
  logged?: boolean
}

/**
 * Create the error for a problem type.
 * @example throw problem('not-found', { detail: 'No blog post with slug "x".' })
 */
export function problem(name: ProblemName, options: ProblemOptions): HTTPError {
  const type = PROBLEM_TYPES[name]
  const status = options.status ?? type.status
  return new HTTPError({
    status,
    message: options.detail,
    headers: options.headers,
    data: { name, errors: options.errors, logged: options.logged },
  })
}

/** Whether `error` is a problem its thrower has logged already (see ProblemOptions.logged). */
export function alreadyLogged(error: HTTPError): boolean {
  return (error.data as { logged?: boolean } | undefined)?.logged === true
}

/**
 * 503 `/problems/unavailable`: no build to answer from (by default), or what
 * `detail` says is missing; retry after `retryAfter` seconds.
 */
export function unavailable(
  detail = 'No content build is loaded.',
  retryAfter = 5,
  options: Pick<ProblemOptions, 'logged'> = {},
): HTTPError {
  return problem('unavailable', { detail, headers: { 'retry-after': String(retryAfter) }, ...options })
}

const BY_STATUS = new Map<number, ProblemName>(
  Object.entries(PROBLEM_TYPES).map(([name, t]) => [t.status, name as ProblemName]),
)
BY_STATUS.set(400, 'bad-request')

/**
 * The problem body for any error; unknown errors become a 500 without
 * details. Values are cut to PROBLEM_LIMITS (what openapi.json promises).
 */
export function toProblem(error: HTTPError, instance?: string): ProblemBody {
  const data = error.data as { name?: ProblemName; errors?: ProblemBody['errors'] } | undefined
  const status = error.status >= 400 && error.status <= 599 ? error.status : 500
  const name = data?.name ?? BY_STATUS.get(status) ?? (status >= 500 ? 'internal-error' : 'bad-request')
  const detail = error.unhandled || status === 500 ? 'An unexpected error occurred.' : error.message
  const body: ProblemBody = {
    type: problemTypeUri(name),
    title: PROBLEM_TYPES[name].title,
    status,
    detail: cut(detail, PROBLEM_LIMITS.detail),
  }
  if (instance !== undefined) body.instance = cut(instance, PROBLEM_LIMITS.instance)
  if (data?.errors?.length) {
    body.errors = data.errors.slice(0, PROBLEM_LIMITS.errors).map((e) => ({
      parameter: cut(e.parameter, PROBLEM_LIMITS.parameter),
      message: cut(e.message, PROBLEM_LIMITS.message),
    }))
  }
  return body
}

/** The headers of a problem answer: the base headers of every answer, never stored, and the error's own. */
export function problemHeaders(requestId: string, json: string, extra?: Headers): Record<string, string> {
  const headers = baseHeaderRecord(requestId, PROBLEM_TYPE, CACHE.none)
  if (extra) for (const [k, v] of extra) headers[k] = v
  headers['content-length'] = String(Buffer.byteLength(json))
  return headers
}

/** `error` as a problem+json Response (no body for HEAD). */
export function problemResponse(error: HTTPError, requestId: string, method: string, instance?: string): Response {
  const json = JSON.stringify(toProblem(error, instance))
  const headers = problemHeaders(requestId, json, error.headers)
  return new Response(method === 'HEAD' ? null : json, { status: toProblemStatus(error), headers })
}

function toProblemStatus(error: HTTPError): number {
  return error.status >= 400 && error.status <= 599 ? error.status : 500
}

/** `text` within `max` characters (UTF-16 units), ending in … when cut. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
