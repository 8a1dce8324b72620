/**
 * `GET /api/{collection}?updated_since=T`: only items updated after T, with
 * limit, page and tag; malformed instants are 400s; the links carry the
 * filter; answers match the OpenAPI document.
 */
import { describe, expect, it } from 'vitest'
import { COLLECTION_NAMES } from '../../helpers/site.ts'
import { parseDateTime } from '../../../contract/query-values.ts'
import type { ContentRecord } from '../../../contract/records.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfBuiltFixture } from '../../helpers/project.ts'

const ctx = useBuiltGateway(copyOfBuiltFixture)
type List = {
  data: ContentRecord[]
  meta: { total: number; count: number; pages: number }
  links: { self: string; next: string | null }
}

async function list(path: string, status = 200): Promise<{ response: Response; body: List }> {
  const response = await fetch(`${ctx.gateway.url}${path}`)
  await assertMatchesContract('GET', path, response)
  expect(response.status, path).toBe(status)
  return { response, body: (await response.clone().json()) as List }
}

describe('updated_since', () => {
  it.each(COLLECTION_NAMES)('%s: only items updated after the instant, in list order', async (collection) => {
    const all = (await list(`/api/${collection}?limit=100`)).body.data
    const instants = [...new Set(all.map((r) => r.updated_at))].sort()
    const middle = instants[Math.floor(instants.length / 2)]!
    const { body, response } = await list(`/api/${collection}?limit=100&updated_since=${middle}`)
    expect(body.data.map((r) => r.slug)).toEqual(
      all.filter((r) => Date.parse(r.updated_at) > Date.parse(middle)).map((r) => r.slug),
    )
    expect(body.data.length).toBeLessThan(all.length)
    expect(response.headers.get('x-total-count')).toBe(String(body.meta.total))
    // An offset names the same instant.
    const shifted = `${new Date(Date.parse(middle) + 3_600_000).toISOString().slice(0, 19)}+01:00`
    expect(parseDateTime(shifted)).toBe(middle)
    expect((await list(`/api/${collection}?limit=100&updated_since=${encodeURIComponent(shifted)}`)).body.data).toEqual(
      body.data,
    )
  })

  it('combines with tag, limit and page, and the links keep it', async () => {
    const since = '2025-06-01T00:00:00Z'
    const all = (await list(`/api/blog-posts?limit=100&updated_since=${since}`)).body
    const tag = all.data.flatMap((r) => r.tags)[0]!
    const tagged = (await list(`/api/blog-posts?limit=100&tag=${tag}&updated_since=${since}`)).body
    expect(tagged.data.map((r) => r.slug)).toEqual(all.data.filter((r) => r.tags.includes(tag)).map((r) => r.slug))
    const first = (await list(`/api/blog-posts?limit=2&updated_since=${since}`)).body
    expect(first.links.self).toBe(`/api/blog-posts?limit=2&updated_since=${encodeURIComponent(since)}`)
    expect(first.links.next).toBe(`/api/blog-posts?limit=2&page=2&updated_since=${encodeURIComponent(since)}`)
    const second = (await list(first.links.next!)).body
    expect([...first.data, ...second.data].map((r) => r.slug)).toEqual(all.data.slice(0, 4).map((r) => r.slug))
    expect((await list('/api/blog-posts?updated_since=2999-01-01T00:00:00Z')).body.meta).toMatchObject({
      total: 0,
      count: 0,
    })
  })

  it('takes a plain date as its midnight UTC, as published_at does', async () => {
    const date = await list('/api/events?limit=100&updated_since=2026-03-01')
    const instant = await list('/api/events?limit=100&updated_since=2026-03-01T00:00:00Z')
    expect(date.body.data).toEqual(instant.body.data)
    expect(date.body.links.self).toBe(
      `/api/events?limit=100&updated_since=${encodeURIComponent('2026-03-01T00:00:00Z')}`,
    )
  })

  it('says when a + of an offset arrived as a space (sent unencoded)', async () => {
    const path = '/api/events?updated_since=2026-03-01T00:00:00+01:00'
    const response = await fetch(`${ctx.gateway.url}${path}`)
    expect(response.status).toBe(400)
    const { errors } = (await response.json()) as { errors: { parameter: string; message: string }[] }
    expect(errors[0]!.message).toBe(
      'must be a date like 2026-03-01 or an RFC 3339 date-time with offset like 2026-03-01T00:00:00Z, got "2026-03-01T00:00:00 01:00": a + in a query string must be sent as %2B (it arrived as a space), like 2026-03-01T00:00:00%2B01:00',
    )
  })

  it('answers 400 for anything but one date or RFC 3339 date-time', async () => {
    for (const value of [
      '',
      'yesterday',
      '2026-02-30',
      '2026-03-01T00:00:00',
      '2026-02-30T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-03-01T24:00:00Z',
      '2026-03-01T00:00:00+25:00',
      '1700000000',
    ]) {
      const path = `/api/events?updated_since=${encodeURIComponent(value)}`
      const response = await fetch(`${ctx.gateway.url}${path}`)
      await assertMatchesContract('GET', path, response)
      expect(response.status, value).toBe(400)
      expect(((await response.json()) as { errors: { parameter: string }[] }).errors[0]!.parameter).toBe(
        'updated_since',
      )
    }
    expect(
      (
        await fetch(
          `${ctx.gateway.url}/api/events?updated_since=2026-01-01T00:00:00Z&updated_since=2026-01-02T00:00:00Z`,
        )
      ).status,
    ).toBe(400)
  })

  it('parses RFC 3339 to one canonical UTC form', () => {
    expect(parseDateTime('2026-03-01T01:30:00+01:30')).toBe('2026-03-01T00:00:00Z')
    expect(parseDateTime('2026-03-01t00:00:00.250z')).toBe('2026-03-01T00:00:00.250Z')
    expect(parseDateTime('2024-02-29T12:00:00Z')).toBe('2024-02-29T12:00:00Z')
    expect(parseDateTime('2025-02-29T12:00:00Z')).toBeUndefined()
  })
})
