import { describe, expect, it } from 'vitest'
import { isPrerendered, listHref, parseListQuery, type ListQuery } from '../../contract/query.ts'
import { COLLECTIONS, FIXTURE_MODEL } from '../helpers/site.ts'

const parse = (query: string, collection: 'blog-posts' | 'case-studies' | 'events' = 'blog-posts') =>
  parseListQuery(new URLSearchParams(query), COLLECTIONS[collection]!, FIXTURE_MODEL)
const refused = (query: string, collection?: 'blog-posts' | 'case-studies' | 'events') => {
  const result = parse(query, collection)
  return result.ok ? [] : result.errors
}

describe('parseListQuery', () => {
  it('defaults to the first ten, ignoring parameters it does not know', () => {
    expect(parse('utm_source=mail&filter=title')).toEqual({ ok: true, query: { limit: 10, page: 1, tag: undefined } })
  })

  it('reads limit, page, tag and updated_since', () => {
    expect(parse('limit=100&page=3&tag=data-quality&updated_since=2026-01-01T10:00:00%2B01:00')).toEqual({
      ok: true,
      query: { limit: 100, page: 3, tag: ['data-quality'], updatedSince: '2026-01-01T09:00:00Z' },
    })
  })

  it('reads every filter, the order and the fields', () => {
    expect(
      parse(
        'tag=FinTech,banking,fintech&published_after=2026-03-31&published_before=2026-06-01T12:00:00%2B02:00&author=Jos%C3%A9%20N%C3%BA%C3%B1ez&when=upcoming&exclude=x-y&sort=-starts_at,title&fields=title,slug,title',
        'events',
      ),
    ).toEqual({
      ok: true,
      query: {
        limit: 10,
        page: 1,
        tag: ['fintech', 'banking'],
        publishedAfter: '2026-03-31',
        publishedBefore: '2026-06-01T10:00:00Z',
        author: 'jose-nunez',
        when: 'upcoming',
        exclude: 'x-y',
        sort: ['-starts_at', 'title'],
        fields: ['title', 'slug'],
      },
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
      query: { limit: 10, page: 1, tag: ['data-quality'], updatedSince: '2026-03-01T00:00:00Z' },
    })
  })

  it('refuses a repeated parameter and reports every bad one at once', () => {
    const result = parse('limit=5&limit=6&page=0&tag=Bad!&updated_since=2026-02-30T00:00:00Z')
    expect(result.ok).toBe(false)
    expect(!result.ok && result.errors.map((e) => e.parameter)).toEqual(['limit', 'page', 'tag', 'updated_since'])
  })

  it.each([
    ['tag', 'a,,b'],
    ['tag', ''],
    ['tag', Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')],
    ['tag', 'a--b'],
    ['published_after', 'yesterday'],
    ['published_after', '2026-02-30'],
    ['published_before', '2026-03-01T00:00:00'],
    ['author', ' '],
    ['author', 'x'.repeat(121)],
    ['when', 'soon'],
    ['when', 'UPCOMING'],
    ['exclude', 'Not A Slug'],
    ['sort', 'starts_at'],
    ['sort', 'title,-title'],
    ['sort', ''],
    ['sort', '--title'],
    ['fields', 'body'],
    ['fields', 'title,'],
    ['fields', ''],
  ])('refuses %s=%j, naming it', (name, value) => {
    const errors = refused(`${name}=${encodeURIComponent(value)}`)
    expect(errors.map((e) => e.parameter)).toEqual([name])
  })

  it('names the valid values in the message', () => {
    expect(refused('sort=rank')[0]!.message).toContain('published_at, updated_at, title')
    expect(refused('fields=body')[0]!.message).toContain('id, type, slug, title, summary, url, tags')
    expect(refused('when=soon', 'events')[0]!.message).toContain('upcoming or past')
  })

  it('refuses the filters a collection does not have, saying which do', () => {
    expect(refused('author=ana', 'case-studies')[0]!.message).toMatch(/does not apply to case-studies.*blog-posts/)
    expect(refused('when=upcoming')[0]!.message).toMatch(/does not apply to blog-posts.*events and webinars/)
    expect(refused('sort=starts_at', 'events')).toEqual([])
  })
})

describe('listHref and isPrerendered', () => {
  const q = (over: Partial<ListQuery>): ListQuery => ({ limit: 10, page: 1, tag: undefined, ...over })

  it('writes the canonical query: limit always, the rest only when given', () => {
    expect(listHref('events', q({}))).toBe('/api/events?limit=10')
    expect(listHref('events', q({ page: 2, tag: ['a b', 'c'], updatedSince: '2026-01-01T00:00:00Z' }))).toBe(
      '/api/events?limit=10&page=2&tag=a%20b,c&updated_since=2026-01-01T00%3A00%3A00Z',
    )
    expect(
      listHref(
        'events',
        q({
          publishedAfter: '2026-03-31',
          author: 'ana',
          when: 'past',
          exclude: 'x',
          sort: ['-title'],
          fields: ['url'],
        }),
      ),
    ).toBe('/api/events?limit=10&published_after=2026-03-31&author=ana&when=past&exclude=x&sort=-title&fields=url')
  })

  it('pre-renders page 1 of the whole collection, in its order, with every field, only', () => {
    expect(isPrerendered(q({ limit: 37 }))).toBe(true)
    expect(isPrerendered(q({ page: 2 }))).toBe(false)
    expect(isPrerendered(q({ tag: ['x'] }))).toBe(false)
    expect(isPrerendered(q({ updatedSince: '2026-01-01T00:00:00Z' }))).toBe(false)
    expect(isPrerendered(q({ when: 'upcoming' }))).toBe(false)
    expect(isPrerendered(q({ exclude: 'x' }))).toBe(false)
    expect(isPrerendered(q({ sort: ['title'] }))).toBe(false)
    expect(isPrerendered(q({ fields: ['title'] }))).toBe(false)
  })
})
