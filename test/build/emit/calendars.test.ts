/**
 * The calendars, read with ical.js (RFC 5545): one VEVENT per published
 * event and webinar, with a stable UID, start and end in the item's zone
 * that convert (through the calendar's own VTIMEZONE) to the API's
 * instants, STATUS from event_status, and lines folded at 75 octets.
 */
import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import { calendarPath } from '../../../contract/public-paths.ts'
import type { FullRecord } from '../../../contract/records.ts'
import { escapeText, fold } from '../../../build/emit/icalendar.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { useBuiltGateway } from '../../helpers/gateway.ts'
import { copyOfBuiltFixture } from '../../helpers/project.ts'

const ctx = useBuiltGateway(copyOfBuiltFixture)
const STATUS: Record<string, string> = {
  scheduled: 'CONFIRMED',
  rescheduled: 'CONFIRMED',
  postponed: 'TENTATIVE',
  cancelled: 'CANCELLED',
}

async function get(path: string): Promise<string> {
  const response = await fetch(`${ctx.gateway.url}${path}`)
  await assertMatchesContract('GET', path, response)
  expect(response.status, path).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
  return response.text()
}

async function records(collection: string): Promise<FullRecord[]> {
  const list = (await (await fetch(`${ctx.gateway.url}/api/${collection}?limit=100`)).json()) as {
    data: { slug: string }[]
  }
  return Promise.all(
    list.data.map(
      async ({ slug }) => (await (await fetch(`${ctx.gateway.url}/api/${collection}/${slug}`)).json()) as FullRecord,
    ),
  )
}

/** The calendar's events, their zones registered from the calendar itself (not from ical.js's own data). */
function parse(text: string): ICAL.Event[] {
  const calendar = new ICAL.Component(ICAL.parse(text))
  ICAL.TimezoneService.reset()
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
  return calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v))
}

/** Every physical line: CRLF-terminated, at most 75 octets, never cutting a UTF-8 character. */
function expectFolded(text: string): void {
  expect(text.endsWith('\r\n')).toBe(true)
  const bytes = Buffer.from(text)
  let start = 0
  for (let i = bytes.indexOf('\r\n', 0); i >= 0; i = bytes.indexOf('\r\n', start)) {
    const line = bytes.subarray(start, i)
    expect(line.length).toBeLessThanOrEqual(75)
    expect(line.toString('utf8')).not.toContain('\uFFFD')
    expect(line.includes(10)).toBe(false)
    start = i + 2
  }
}

describe.each(['events', 'webinars'])('/calendar/%s.ics', (collection) => {
  it("has one VEVENT per published item matching the API: UID, DTSTART/DTEND in the item's zone, STATUS, SUMMARY, URL, LOCATION", async () => {
    const text = await get(calendarPath(collection))
    expectFolded(text)
    const events = parse(text)
    const items = await records(collection)
    expect(events.map((e) => e.uid)).toEqual(items.map((r) => `${r.id}@www.tidewater.example`))
    expect(new Set(events.map((e) => e.uid)).size).toBe(items.length)
    events.forEach((event, i) => {
      const r = items[i]!
      const end =
        typeof r.ends_at === 'string'
          ? r.ends_at
          : new Date(Date.parse(String(r.starts_at)) + Number(r.duration_minutes) * 60_000).toISOString()
      expect(event.startDate.zone?.tzid, r.slug).toBe(r.timezone)
      expect(event.startDate.toJSDate().getTime(), r.slug).toBe(Date.parse(String(r.starts_at)))
      expect(event.endDate.toJSDate().getTime(), r.slug).toBe(Date.parse(end))
      expect(event.summary).toBe(r.title)
      expect(event.description.startsWith(String(r.summary))).toBe(true)
      expect(event.component.getFirstPropertyValue('url')).toBe(r.url)
      expect(event.component.getFirstPropertyValue('status')).toBe(STATUS[String(r.event_status ?? 'scheduled')])
      expect(event.component.getFirstPropertyValue('dtstamp')!.toString()).toBe(
        new Date(r.updated_at).toISOString().replace('.000Z', 'Z'),
      )
      const place = r.location as { venue: string; city: string } | null | undefined
      if (place) expect(event.location).toContain(place.city)
      else expect(event.location).toMatch(/^Online/)
    })
  })

  it('has a file per item with that one event, the same UID, and a 404 for an unknown slug', async () => {
    const items = await records(collection)
    for (const r of items) {
      const [event, ...rest] = parse(await get(calendarPath(collection, r.slug)))
      expect(rest).toEqual([])
      expect(event!.uid).toBe(`${r.id}@www.tidewater.example`)
    }
    const missing = await fetch(`${ctx.gateway.url}${calendarPath(collection, 'no-such-item')}`)
    expect(missing.status).toBe(404)
    await assertMatchesContract('GET', calendarPath(collection, 'no-such-item'), missing)
  })
})

describe('calendar content lines', () => {
  it('covers every event status the content uses (cancelled, postponed and scheduled at least)', async () => {
    const statuses = new Set((await records('events')).map((r) => r.event_status))
    expect([...statuses]).toEqual(expect.arrayContaining(['cancelled', 'postponed', 'scheduled']))
  })

  it('folds by octets, never inside a multi-byte character, and unfolds to the same text', () => {
    const line = `DESCRIPTION:${escapeText('Zürich, São Paulo; Kraków\n東京 — 🌊'.repeat(6))}`
    const folded = fold(line)
    for (const physical of folded.split('\r\n')) {
      expect(Buffer.byteLength(physical)).toBeLessThanOrEqual(75)
      expect(physical).not.toContain('\uFFFD')
    }
    expect(
      folded
        .split('\r\n')
        .slice(1)
        .every((l) => l.startsWith(' ')),
    ).toBe(true)
    expect(folded.replace(/\r\n /g, '')).toBe(line)
    expect(
      new ICAL.Component(ICAL.parse(`BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n${folded}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`))
        .getFirstSubcomponent('vevent')!
        .getFirstPropertyValue('description'),
    ).toBe('Zürich, São Paulo; Kraków\n東京 — 🌊'.repeat(6))
  })

  it('folds exactly as a character-by-character count of octets does, lone surrogates too', () => {
    // The plain definition: each character's UTF-8 size as Buffer counts it.
    const byCharacter = (line: string) => {
      if (Buffer.byteLength(line) <= 75) return line
      let out = ''
      let width = 0
      for (const char of line) {
        const size = Buffer.byteLength(char)
        if (width + size > 75) {
          out += '\r\n '
          width = 1
        }
        out += char
        width += size
      }
      return out
    }
    const pieces = ['a', ' ', ';', 'é', 'ß', '東', '—', '🌊', '\uD83C', '\uDF0A', '\uFFFD']
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
    for (let n = 0; n < 5000; n++) {
      let line = ''
      const length = next() % 240
      for (let i = 0; i < length; i++) line += next() % 3 ? 'x' : pieces[next() % pieces.length]
      expect(fold(line)).toBe(byCharacter(line))
    }
  })
})
