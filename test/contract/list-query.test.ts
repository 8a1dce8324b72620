import { describe, expect, it } from 'vitest'
import { contentCacheUntil, CACHE } from '../../contract/headers.ts'
import {
  recordMatcher,
  scheduleWindow,
  selectFields,
  selectItems,
  sortRecords,
  startTimes,
} from '../../contract/list-query.ts'
import type { ContentRecord } from '../../contract/records.ts'
import { eventRecord } from '../helpers/records.ts'
import { COLLECTIONS } from '../helpers/site.ts'

const record = eventRecord
const slugs = (items: readonly ContentRecord[]) => items.map((i) => i.slug)

describe('sortRecords', () => {
  const items = [
    record('a', { title: 'Part 10', published_at: '2026-01-02T00:00:00Z' }),
    record('b', { title: 'part 9', published_at: '2026-01-01T00:00:00Z' }),
    record('c', { title: 'Émile', published_at: '2026-01-02T00:00:00Z' }),
    record('d', { title: 'emile', published_at: '2026-01-01T00:00:00Z', ends_at: '2026-02-01T00:00:00Z' }),
  ]

  it('orders text ignoring case and accents, numbers by value, ties in the given order', () => {
    expect(slugs(sortRecords(items, ['title']))).toEqual(['c', 'd', 'b', 'a'])
    expect(slugs(sortRecords(items, ['-title']))).toEqual(['a', 'b', 'c', 'd'])
  })

  it('lets a later key order what an earlier one ties', () => {
    expect(slugs(sortRecords(items, ['published_at', 'title']))).toEqual(['d', 'b', 'c', 'a'])
    expect(slugs(sortRecords(items, ['-published_at', '-title']))).toEqual(['a', 'c', 'b', 'd'])
    // Only the first key: ties keep the order given.
    expect(slugs(sortRecords(items, ['published_at']))).toEqual(['b', 'd', 'a', 'c'])
  })

  it('puts a missing value last, either way', () => {
    expect(slugs(sortRecords(items, ['ends_at']))[0]).toBe('d')
    expect(slugs(sortRecords(items, ['-ends_at']))[0]).toBe('d')
  })
})

describe('recordMatcher', () => {
  it('keeps every record when nothing filters', () => {
    expect(recordMatcher({ tag: undefined }, 0, ['authors'])).toBeUndefined()
  })

  it('finds a person by slug or by the slug of their name', () => {
    const post = record('p', { authors: [{ name: 'José Núñez', slug: 'jnunez' }] })
    expect(recordMatcher({ author: 'jnunez' }, 0, ['authors'])!(post)).toBe(true)
    expect(recordMatcher({ author: 'jose-nunez' }, 0, ['authors'])!(post)).toBe(true)
    expect(recordMatcher({ author: 'jose' }, 0, ['authors'])!(post)).toBe(false)
  })

  it('decides when by the clock: upcoming before the start, past from it on; no start, neither', () => {
    const event = record('e', { starts_at: '2027-01-14T17:00:00+01:00' })
    const start = Date.parse('2027-01-14T16:00:00Z')
    expect(recordMatcher({ when: 'upcoming' }, start - 1, ['authors'])!(event)).toBe(true)
    expect(recordMatcher({ when: 'upcoming' }, start, ['authors'])!(event)).toBe(false)
    expect(recordMatcher({ when: 'past' }, start, ['authors'])!(event)).toBe(true)
    expect(recordMatcher({ when: 'past' }, start, ['authors'])!(record('post'))).toBe(false)
  })
})

describe('selectFields and selectItems', () => {
  it('keeps the record’s order, and id and type always', () => {
    expect(Object.keys(selectFields(record('x', { image: null }), ['image', 'slug']))).toEqual([
      'id',
      'type',
      'slug',
      'image',
    ])
  })

  it('filters, then orders', () => {
    const items = [record('a', { tags: ['x'], title: 'B' }), record('b', { tags: ['y'], title: 'A' }), record('c')]
    expect(slugs(selectItems(COLLECTIONS['blog-posts']!, items, { tag: ['x', 'y'], sort: ['title'] }, 0))).toEqual([
      'b',
      'a',
    ])
  })
})

describe('schedule windows and their cache lifetime', () => {
  const starts = startTimes([
    record('a', { starts_at: '2027-01-01T00:00:00Z' }),
    record('b', { starts_at: '2026-01-01T00:00:00Z' }),
    record('post'),
  ])

  it('counts the starts at or before now; the window ends at the next one', () => {
    const first = Date.parse('2026-01-01T00:00:00Z')
    expect(starts).toEqual([first, Date.parse('2027-01-01T00:00:00Z')])
    expect(scheduleWindow(starts, first - 1)).toEqual({ index: 0, changesAt: first })
    expect(scheduleWindow(starts, first)).toEqual({ index: 1, since: first, changesAt: starts[1] })
    expect(scheduleWindow(starts, starts[1]!)).toEqual({ index: 2, since: starts[1] })
  })

  it('caps max-age and stale-while-revalidate together at the end of the window', () => {
    const now = 1_000_000
    expect(contentCacheUntil(now, undefined)).toBe(CACHE.content)
    expect(contentCacheUntil(now, now + 660_000)).toBe(CACHE.content)
    expect(contentCacheUntil(now, now + 659_999)).toBe('public, max-age=60, stale-while-revalidate=599')
    expect(contentCacheUntil(now, now + 30_500)).toBe('public, max-age=30, stale-while-revalidate=0')
    expect(contentCacheUntil(now, now + 999)).toBe('public, max-age=0, stale-while-revalidate=0')
  })
})
