import { describe, expect, it } from 'vitest'
import type { SiteConfig } from '../../../build/core/site.ts'
import { deriveRecord, normaliseDate, recordId, sortRecords, toSummary } from '../../../build/pipeline/derive.ts'
import { eventRecord } from '../../helpers/records.ts'
import { fixtureSite } from '../../helpers/site.ts'

const site: SiteConfig = fixtureSite({ name: 'Co', description: '', url: 'https://www.example.com' })
const rendered = {
  html: '<p>Hello world</p>',
  text: 'Hello world',
  word_count: 2,
  first_paragraph: 'Hello world',
  images: [],
  toc: [],
  tree_json: '{"version":1,"children":[]}',
}

describe('deriveRecord', () => {
  it('gives every person a slug after the name: the file’s, else one made from the name', () => {
    const post = deriveRecord(
      'blog-posts',
      'p',
      {
        title: 'P',
        published_at: '2026-03-14',
        authors: [
          { name: 'José Núñez', title: 'PM' },
          { name: 'Ann Lee', slug: 'ann' },
        ],
      },
      '',
      rendered,
      site,
    )
    expect(post.authors).toEqual([
      { name: 'José Núñez', slug: 'jose-nunez', title: 'PM' },
      { name: 'Ann Lee', slug: 'ann' },
    ])
    expect(Object.keys((post.authors as object[])[0]!)).toEqual(['name', 'slug', 'title'])
    const event = deriveRecord(
      'events',
      'e',
      {
        title: 'E',
        published_at: '2026-03-14',
        starts_at: '2026-04-01T09:00:00Z',
        ends_at: '2026-04-01T10:00:00Z',
        timezone: 'UTC',
        attendance_mode: 'online',
      },
      '',
      rendered,
      site,
    )
    expect(event.speakers).toEqual([])
  })

  it('makes the published record: id, type, canonical url, dates, defaults, reading time, field order', () => {
    const record = deriveRecord(
      'blog-posts',
      'hello',
      { title: 'Hello', published_at: '2026-03-14', authors: [{ name: 'A' }] },
      '\nHello world\n',
      rendered,
      site,
    )
    expect(Object.keys(record)).toEqual([
      'id',
      'type',
      'slug',
      'title',
      'summary',
      'url',
      'tags',
      'published_at',
      'updated_at',
      'expires_at',
      'image',
      'social_image',
      'authors',
      'related',
      'reading_time_minutes',
      'word_count',
      'body',
      'toc',
    ])
    expect(record).toMatchObject({
      id: recordId('blog-posts', 'hello'),
      type: 'blog_post',
      summary: 'Hello world',
      url: 'https://www.example.com/blog/hello',
      tags: [],
      published_at: '2026-03-14T00:00:00Z',
      updated_at: '2026-03-14T00:00:00Z',
      image: null,
      related: [],
      reading_time_minutes: 1,
      word_count: 2,
      body: { html: '<p>Hello world</p>', markdown: 'Hello world', text: 'Hello world' },
    })
  })

  it("fills a collection's optional fields with their defaults", () => {
    const record = deriveRecord(
      'events',
      'x',
      { title: 'X', published_at: '2026-01-01', starts_at: '2027-01-01T10:00:00+01:00' },
      'b',
      rendered,
      site,
    )
    expect(record).toMatchObject({ event_status: 'scheduled', online_url: null, location: null })
  })
})

describe('normaliseDate, recordId, toSummary, sortRecords', () => {
  it('normalises dates to UTC date-times', () => {
    expect(normaliseDate('2026-03-14')).toBe('2026-03-14T00:00:00Z')
    expect(normaliseDate('2026-03-14T09:30:00+01:00')).toBe('2026-03-14T08:30:00Z')
  })

  it('gives a stable id per collection and slug', () => {
    expect(recordId('events', 'a')).toMatch(/^[0-9a-f]{20}$/)
    expect(recordId('events', 'a')).toBe(recordId('events', 'a'))
    expect(recordId('events', 'a')).not.toBe(recordId('webinars', 'a'))
  })

  it('lists a record without its body, metrics and related items, one object per record', () => {
    const record = deriveRecord('blog-posts', 'h', { title: 'H', published_at: '2026-01-01' }, 'b', rendered, site)
    const summary = toSummary(record)
    expect(Object.keys(summary)).not.toContain('body')
    expect(Object.keys(summary)).not.toContain('related')
    expect(toSummary(record)).toBe(summary)
  })

  it('sorts newest first, by starts_at for events, ties by slug', () => {
    const at = (slug: string, starts_at: string) => eventRecord(slug, { starts_at })
    const sorted = sortRecords(site.collections.events!, [
      at('b', '2027-01-01T10:00:00Z'),
      at('a', '2027-01-01T11:00:00+01:00'),
      at('c', '2027-06-01T00:00:00Z'),
    ])
    expect(sorted.map((r) => r.slug)).toEqual(['c', 'a', 'b'])
  })
})
