/** The contract checker itself: it must reject what the document does not allow. */
import { describe, expect, it } from 'vitest'
import { contract, type ContractResponse } from '../../helpers/contract.ts'

const json = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  type = 'application/json; charset=utf-8',
): ContractResponse => ({
  status,
  headers: new Headers({
    'content-type': type,
    'cache-control': 'public, max-age=60',
    'x-request-id': 'r1',
    etag: '"abc"',
    'x-total-count': '0',
    'access-control-allow-origin': '*',
    'api-version': '1.0.0',
    ...headers,
  }),
  body: JSON.stringify(body),
})

const emptyList = {
  data: [],
  meta: { limit: 10, page: 1, count: 0, total: 0, pages: 0 },
  links: { self: '/api/events?limit=10', next: null, prev: null },
}

describe('the contract checker', () => {
  it('accepts a conforming list', () => {
    expect(contract().check('GET', '/api/events', json(200, emptyList))).toEqual([])
  })

  it('rejects a list with a wrong envelope, a missing header or an undocumented status', () => {
    expect(
      contract()
        .check('GET', '/api/events', json(200, { ...emptyList, meta: { limit: 10 } }))
        .join(),
    ).toMatch(/meta/)
    const noCount = json(200, emptyList)
    noCount.headers.delete('x-total-count')
    expect(contract().check('GET', '/api/events', noCount).join()).toMatch(/missing header X-Total-Count/)
    expect(contract().check('GET', '/api/events', json(418, {})).join()).toMatch(/not documented/)
  })

  it('rejects an item with a field the schema does not know, or a null where the build never writes one', () => {
    const problem = contract().check('GET', '/api/blog-posts/x', json(200, { id: 'x', surprise: true }))
    expect(problem.join()).toMatch(/additionalProperties|required/)
  })

  it('rejects a problem of the wrong type for its status, and a 200 on an undocumented path', () => {
    const wrong = json(
      400,
      { type: '/problems/not-found', title: 'Not found', status: 400, detail: 'x' },
      {},
      'application/problem+json',
    )
    expect(contract().check('GET', '/api/events?limit=0', wrong).join()).toMatch(/allowed values/)
    expect(contract().check('GET', '/nowhere', json(200, {})).join()).toMatch(/only 404/)
    expect(contract().check('DELETE', '/api/events', json(200, {})).join()).toMatch(/only 405/)
  })
})
