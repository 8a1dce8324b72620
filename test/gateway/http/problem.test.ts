import { HTTPError } from 'h3'
import { describe, expect, it } from 'vitest'
import { problem, toProblem } from '../../../gateway/http/problem.ts'

describe('toProblem', () => {
  it('turns a thrown problem into its RFC 9457 body, with the parameter errors', () => {
    const error = problem('invalid-parameter', {
      detail: 'limit must be 1..100',
      errors: [{ parameter: 'limit', message: 'must be 1..100' }],
    })
    expect(toProblem(error, '/api/events')).toEqual({
      type: '/problems/invalid-parameter',
      title: 'Invalid query parameter',
      status: 400,
      detail: 'limit must be 1..100',
      instance: '/api/events',
      errors: [{ parameter: 'limit', message: 'must be 1..100' }],
    })
  })

  it("maps h3's own errors by status, and never shows what a 500 was", () => {
    expect(toProblem(new HTTPError({ status: 405, message: 'nope' }), '/x')).toMatchObject({
      type: '/problems/method-not-allowed',
      status: 405,
      detail: 'nope',
    })
    expect(toProblem(new HTTPError({ status: 500, message: 'db password is hunter2' }), '/x')).toMatchObject({
      type: '/problems/internal-error',
      status: 500,
      detail: 'An unexpected error occurred.',
    })
    expect(toProblem(new HTTPError({ status: 418, message: 'teapot' }), '/x')).toMatchObject({
      type: '/problems/bad-request',
      status: 418,
    })
  })

  it('keeps a status override (a timeout is a 503)', () => {
    expect(toProblem(problem('timeout', { detail: 'too slow' }), '/x')).toMatchObject({
      type: '/problems/timeout',
      status: 503,
    })
  })
})
