/**
 * RFC 9457 problem answers. Handlers throw {@link problem}(…), an h3
 * HTTPError carrying the problem body; the app's error hook turns every error,
 * ours or h3's, into `application/problem+json` — never a stack trace.
 */
import { HTTPError } from 'h3'
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
    data: { name, errors: options.errors },
  })
}

const BY_STATUS = new Map<number, ProblemName>(
  Object.entries(PROBLEM_TYPES).map(([name, t]) => [t.status, name as ProblemName]),
)
BY_STATUS.set(400, 'bad-request')

/**
 * The problem body for any error; unknown errors become a 500 without
 * details. Values are cut to PROBLEM_LIMITS (what openapi.json promises).
 */
export function toProblem(error: HTTPError, instance: string): ProblemBody {
  const data = error.data as { name?: ProblemName; errors?: ProblemBody['errors'] } | undefined
  const status = error.status >= 400 && error.status <= 599 ? error.status : 500
  const name = data?.name ?? BY_STATUS.get(status) ?? (status >= 500 ? 'internal-error' : 'bad-request')
  const detail = error.unhandled || status === 500 ? 'An unexpected error occurred.' : error.message
  const body: ProblemBody = {
    type: problemTypeUri(name),
    title: PROBLEM_TYPES[name].title,
    status,
    detail: cut(detail, PROBLEM_LIMITS.detail),
    instance: cut(instance, PROBLEM_LIMITS.instance),
  }
  if (data?.errors?.length) {
    body.errors = data.errors.slice(0, PROBLEM_LIMITS.errors).map((e) => ({
      parameter: cut(e.parameter, PROBLEM_LIMITS.parameter),
      message: cut(e.message, PROBLEM_LIMITS.message),
    }))
  }
  return body
}

/** `text` within `max` characters (UTF-16 units), ending in … when cut. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
