/**
 * Frontmatter a new file of each collection starts with: every field its
 * schema requires, with placeholders that pass validation, and `draft: true`
 * so nothing is published until the author removes it.
 */
import type { CollectionName } from '../../contract/collections.ts'

export interface Dates {
  /** Today, YYYY-MM-DD. */
  today: string
  /** Four weeks from now, 16:00 UTC, RFC 3339. */
  later: string
  /** Two hours after `later`. */
  laterEnd: string
}

const BODY: Record<CollectionName, string> = {
  'blog-posts': 'Write the post here. The first paragraph becomes the summary unless `summary` is set.',
  'case-studies': 'Tell the customer story here: the problem, what they did, what changed.',
  webinars: 'Describe the webinar here: who it is for and what attendees will learn.',
  events: 'Describe the event here: the agenda, who should come, how to take part.',
}

/** YAML of the collection's required fields (after `title`, `tags`, `published_at`, `draft`), in the schema's order. */
const FIELDS: Record<CollectionName, (d: Dates) => string[]> = {
  'blog-posts': () => ['authors:', '  - name: Your Name'],
  'case-studies': () => [
    'customer:',
    '  name: Customer name',
    '  industry: Industry',
    'results:',
    '  - label: Headline result',
    '    value: "-50%"',
  ],
  webinars: (d) => [
    `starts_at: ${d.later}`,
    'duration_minutes: 60',
    'timezone: Europe/London',
    'speakers:',
    '  - name: Speaker Name',
  ],
  events: (d) => [
    `starts_at: ${d.later}`,
    `ends_at: ${d.laterEnd}`,
    'timezone: Europe/London',
    'attendance_mode: online',
    'event_status: scheduled',
  ],
}

export function renderTemplate(
  collection: CollectionName,
  title: string,
  dates: Dates,
  related: readonly string[] = [],
  schedule: { publishAt?: string; expiresAt?: string } = {},
): string {
  const lines = [
    '---',
    // JSON strings are valid YAML, so any title survives quoting.
    `title: ${JSON.stringify(title)}`,
    'tags: []',
    `published_at: ${schedule.publishAt ?? dates.today}`,
    ...(schedule.expiresAt ? [`expires_at: ${schedule.expiresAt}`] : []),
    'draft: true',
    ...(related.length ? ['related:', ...related.map((r) => `  - ${r}`)] : []),
    ...FIELDS[collection](dates),
    '---',
    '',
    BODY[collection],
    '',
  ]
  return lines.join('\n')
}

export function datesFrom(now: Date): Dates {
  const later = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 28, 16))
  const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')
  return {
    today: now.toISOString().slice(0, 10),
    later: iso(later),
    laterEnd: iso(new Date(later.getTime() + 2 * 3600_000)),
  }
}
