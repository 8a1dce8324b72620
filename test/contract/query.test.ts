import { describe, expect, it } from 'vitest'
import { isPrerendered, listHref, parseListQuery, type ListQuery } from '../../contract/query.ts'

const parse = (query: string) => parseListQuery(new URLSearchParams(query))

describe('parseListQuery', () => {
  it('defaults to the first ten, ignoring parameters it does not know', () => {
    expect(parse('utm_source=mail&fields=title')).toEqual({ ok: true, query: { limit: 10, page: 1, tag: undefined } })
  })

  it('reads limit, page, tag and updated_since', () => {
    expect(parse('limit=100&page=3&tag=data-quality&updated_since=2026-01-01T10:00:00%2B01:00')).toEqual({
      ok: true,
      query: { limit: 100, page: 3, tag: 'data-quality', updatedSince: '2026-01-01T09:00:00Z' },
    })
  })

  it.each(['0', '101', '-1', '1.5', 'abc', '', '05', ' 5', '1e2'])('refuses limit=%j, naming the range', (value) => {
    expect(parse(`limit=${encodeURIComponent(value)}`)).toEqual({
      ok: false,
      errors: [{ parameter: 'limit', message: expect.stringContaining('an integer from 1 to 100') }],
    })
  })

  it('takes a tag in any case, as written (lowercase), and a date as its midnight UTC', () => {
    expect(parse('tag=Data-Quality&updated_since=2026-03-01')).toEqual({
      ok: true,
      query: { limit: 10, page: 1, tag: 'data-quality', updatedSince: '2026-03-01T00:00:00Z' },
    })
  })

  it('refuses a repeated parameter and reports every bad one at once', () => {
    const result = parse('limit=5&limit=6&page=0&tag=Bad!&updated_since=2026-02-30T00:00:00Z')
    expect(result.ok).toBe(false)
    expect(!result.ok && result.errors.map((e) => e.parameter)).toEqual(['limit', 'page', 'tag', 'updated_since'])
  })
})

describe('listHref and isPrerendered', () => {
  const q = (over: Partial<ListQuery>): ListQuery => ({ limit: 10, page: 1, tag: undefined, ...over })

  it('writes the canonical query: limit always, the rest only when not the default', () => {
    expect(listHref('events', q({}))).toBe('/api/events?limit=10')
    expect(listHref('events', q({ page: 2, tag: 'a b', updatedSince: '2026-01-01T00:00:00Z' }))).toBe(
      '/api/events?limit=10&page=2&tag=a%20b&updated_since=2026-01-01T00%3A00%3A00Z',
    )
  })

  it('pre-renders page 1 without filters only', () => {
    expect(isPrerendered(q({ limit: 37 }))).toBe(true)
    expect(isPrerendered(q({ page: 2 }))).toBe(false)
    expect(isPrerendered(q({ tag: 'x' }))).toBe(false)
    expect(isPrerendered(q({ updatedSince: '2026-01-01T00:00:00Z' }))).toBe(false)
  })
})
