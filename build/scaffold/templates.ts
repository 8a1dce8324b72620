/**
 * Frontmatter a new file of each collection starts with: every field its
 * schema requires, with placeholders that pass validation (core/placeholders.ts,
 * which the check refuses in a published item), and `draft: true` so nothing
 * is published until the author removes it.
 */
import type { CollectionName } from '../../contract/collections.ts'
import { PLACEHOLDERS } from '../core/placeholders.ts'

export interface Dates {
  /** Today, YYYY-MM-DD. */
  today: string
  /** Four weeks from now, 16:00 UTC, RFC 3339. */
  later: string
  /** Two hours after `later`. */
  laterEnd: string
}

/** YAML of the collection's required fields (after `title`, `tags`, `published_at`, `draft`), in the schema's order. */
const FIELDS: Record<CollectionName, (d: Dates) => string[]> = {
  'blog-posts': () => {
    const p = PLACEHOLDERS['blog-posts'].fields
    return ['authors:', `  - name: ${p['authors[].name']}`]
  },
  'case-studies': () => {
    const p = PLACEHOLDERS['case-studies'].fields
    return [
      'customer:',
      `  name: ${p['customer.name']}`,
      `  industry: ${p['customer.industry']}`,
      'results:',
      `  - label: ${p['results[].label']}`,
      '    value: "-50%"',
    ]
  },
  webinars: (d) => [
    `starts_at: ${d.later}`,
    'duration_minutes: 60',
    'timezone: Europe/London',
    'speakers:',
    `  - name: ${PLACEHOLDERS.webinars.fields['speakers[].name']}`,
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
    PLACEHOLDERS[collection].body,
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
