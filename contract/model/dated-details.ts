/**
 * The details of a dated collection's items that MCP's list_upcoming and the
 * upcoming-events prompt show: how to attend, whether it still happens, where
 * and how to register. They are field names a dated collection may declare
 * (the seed's events declare them all, its webinars only `registration_url`);
 * an item shows those its collection declares, so a team's own dated
 * collection gets the ones it has, and a tool never promises a field no
 * collection holds. Calendars read the same names (build/emit/calendars.ts).
 */
import type { CollectionModel, ContentModel } from './model.ts'
import { datedCollections } from './model.ts'
import type { Field } from './fields.ts'

export interface DatedDetail {
  /** Its key in an upcoming item. */
  key: string
  /** Where a record holds it: a field, or a field of an object field. */
  path: readonly [string] | readonly [string, string]
  /** What it says when the field declares no description. */
  description: string
}

export const DATED_DETAILS: readonly DatedDetail[] = [
  { key: 'attendance_mode', path: ['attendance_mode'], description: 'How to attend it: in person, online or both.' },
  { key: 'event_status', path: ['event_status'], description: 'Whether it takes place as announced.' },
  { key: 'region', path: ['location', 'region'], description: 'The region it is in.' },
  { key: 'city', path: ['location', 'city'], description: 'The city it is in.' },
  { key: 'country', path: ['location', 'country'], description: 'The country it is in.' },
  { key: 'registration_url', path: ['registration_url'], description: 'Where to register.' },
]

/** The field a collection declares at `path`, if it does. */
export function fieldAt(collection: CollectionModel, path: DatedDetail['path']): Field | undefined {
  const [first, second] = path
  const field = Object.hasOwn(collection.fields, first) ? collection.fields[first] : undefined
  if (second === undefined || !field) return field
  return field.fields && Object.hasOwn(field.fields, second) ? field.fields[second] : undefined
}

/** The details some dated collection of the model declares, each with the first such field. */
export function declaredDetails(model: ContentModel): { detail: DatedDetail; field: Field }[] {
  const dated = datedCollections(model).map((name) => model.collections[name]!)
  const out: { detail: DatedDetail; field: Field }[] = []
  for (const detail of DATED_DETAILS) {
    const field = dated.map((c) => fieldAt(c, detail.path)).find((f) => f !== undefined)
    if (field) out.push({ detail, field })
  }
  return out
}

/** A detail's value in a record: the string at its path, else null. */
export function detailOf(record: Readonly<Record<string, unknown>>, detail: DatedDetail): string | null {
  const [first, second] = detail.path
  let value = record[first]
  if (second !== undefined)
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[second] : undefined
  return typeof value === 'string' ? value : null
}

/** How a detail reads in a tool's schema: the field's description, or the default, with an enum's values. */
export function detailDescription({ detail, field }: { detail: DatedDetail; field: Field }): string {
  const text = field.description ?? detail.description
  return field.values ? `${text} One of ${field.values.join(', ')}.` : text
}
