import { describe, expect, it } from 'vitest'
import type { ContentRecord } from '../../contract/records.ts'
import { linkHeader, listEnvelope, paginate } from '../../contract/render.ts'
import { COLLECTIONS } from '../helpers/site.ts'

const items: ContentRecord[] = Array.from({ length: 7 }, (_, i) => ({
  id: `id${i}`,
  type: 'event',
  slug: `e${i}`,
  title: `E${i}`,
  tags: i % 2 ? ['odd'] : ['even'],
  published_at: '2026-01-01T00:00:00Z',
  updated_at: `2026-01-0${i + 1}T00:00:00Z`,
}))

describe('paginate', () => {
  it('counts pages and links the neighbours', () => {
    expect(paginate('events', 7, { limit: 3, page: 2, tag: undefined })).toEqual({
      pages: 3,
      links: { self: '/api/events?limit=3&page=2', next: '/api/events?limit=3&page=3', prev: '/api/events?limit=3' },
    })
  })

  it('past the last page links back to the last one, and an empty list has no pages', () => {
    expect(paginate('events', 7, { limit: 3, page: 9, tag: undefined }).links).toEqual({
      self: '/api/events?limit=3&page=9',
      next: null,
      prev: '/api/events?limit=3&page=3',
    })
    expect(paginate('events', 0, { limit: 3, page: 1, tag: undefined })).toEqual({
      pages: 0,
      links: { self: '/api/events?limit=3', next: null, prev: null },
    })
  })
})

describe('listEnvelope', () => {
  it('slices the matching items and says how many there are', () => {
    const envelope = listEnvelope(COLLECTIONS.events!, items, { limit: 2, page: 2, tag: ['odd'] })
    expect(envelope.data.map((i) => i.slug)).toEqual(['e5'])
    expect(envelope.meta).toEqual({ limit: 2, page: 2, count: 1, total: 3, pages: 2 })
  })

  it('keeps the items updated after updated_since', () => {
    const envelope = listEnvelope(COLLECTIONS.events!, items, {
      limit: 10,
      page: 1,
      tag: undefined,
      updatedSince: '2026-01-05T00:00:00Z',
    })
    expect(envelope.data.map((i) => i.slug)).toEqual(['e5', 'e6'])
  })
})

describe('linkHeader', () => {
  it('names next and prev, or nothing', () => {
    expect(linkHeader({ next: '/n', prev: '/p' })).toBe('</n>; rel="next", </p>; rel="prev"')
    expect(linkHeader({ next: null, prev: null })).toBeUndefined()
  })
})
