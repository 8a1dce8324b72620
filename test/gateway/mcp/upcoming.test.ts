import { describe, expect, it } from 'vitest'
import type { Manifest } from '../../../contract/manifest.ts'
import type { ContentRecord } from '../../../contract/records.ts'
import { Snapshot } from '../../../gateway/artifacts.ts'
import { regionsOf, upcoming } from '../../../gateway/mcp/upcoming.ts'
import { eventRecord } from '../../helpers/records.ts'
import { FIXTURE_MODEL } from '../../helpers/site.ts'

const item = (slug: string, starts_at: string, extra: Record<string, unknown> = {}) =>
  eventRecord(slug, { starts_at, ...extra })

function snapshotOf(events: ContentRecord[], webinars: ContentRecord[]): Snapshot {
  const manifest = {
    format: 1,
    input_hash: '',
    files: {},
    build: {
      id: 'b',
      content_updated_at: '2026-01-01T00:00:00Z',
      counts: { 'blog-posts': 0, 'case-studies': 0, webinars: webinars.length, events: events.length },
    },
    collections: { 'blog-posts': [], 'case-studies': [], webinars, events },
    model: FIXTURE_MODEL,
  } as unknown as Manifest
  return new Snapshot(manifest, new Map())
}

const now = new Date('2027-01-01T12:00:00Z')

describe('upcoming', () => {
  const snapshot = snapshotOf(
    [
      item('past', '2027-01-01T11:59:59Z'),
      item('soon', '2027-01-02T09:00:00+01:00', {
        location: { region: 'EMEA', city: 'Zürich', country: 'CH' },
        attendance_mode: 'in_person',
      }),
      item('later', '2027-03-01T00:00:00Z', { tags: ['events-apac'] }),
    ],
    [item('webinar', '2027-01-05T16:00:00Z', { tags: ['events-emea'] })],
  )

  it('lists what starts after now, soonest first, across events and webinars', () => {
    expect(upcoming(snapshot, { now }).map((u) => u.slug)).toEqual(['soon', 'webinar', 'later'])
    expect(upcoming(snapshot, { now }).find((u) => u.slug === 'webinar')).toMatchObject({
      attendance_mode: 'online',
      region: 'emea',
      resource_uri: 'content://webinars/webinar',
    })
  })

  it('narrows by days, collection and region (location or events-* tag, any case)', () => {
    expect(upcoming(snapshot, { now, days: 3 }).map((u) => u.slug)).toEqual(['soon'])
    expect(upcoming(snapshot, { now, collection: 'webinars' }).map((u) => u.slug)).toEqual(['webinar'])
    expect(upcoming(snapshot, { now, region: 'emea' }).map((u) => u.slug)).toEqual(['soon', 'webinar'])
    expect(upcoming(snapshot, { now, region: 'APAC' }).map((u) => u.slug)).toEqual(['later'])
  })

  it('takes regions from the location first, then the tags', () => {
    expect(
      regionsOf(
        item('x', '2027-01-01T00:00:00Z', { location: { region: 'Americas' }, tags: ['events-latam', 'other'] }),
      ),
    ).toEqual(['Americas', 'latam'])
  })
})
