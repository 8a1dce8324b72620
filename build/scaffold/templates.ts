/**
 * Frontmatter a new file of a collection starts with: every field its model
 * requires, with placeholders that pass validation (a value of each field's
 * type, within its bounds), and `draft: true` so nothing is published until
 * the author removes it; the check refuses the placeholders in a published
 * item (core/placeholders.ts). Nothing here names a collection: a collection
 * added to content/site.yaml has its template at once.
 */
import type { Field } from '../../contract/model/fields.ts'
import type { CollectionModel } from '../../contract/model/model.ts'
import { partsOf, placeholdersOf, placeholderText, requiredFields } from '../core/placeholders.ts'

export interface Dates {
  /** Today, YYYY-MM-DD. */
  today: string
  /** Four weeks from now, 16:00 UTC, RFC 3339. */
  later: string
  /** Two hours after `later`. */
  laterEnd: string
}

/** What a placeholder may need beyond its field: the dates, and items a reference may name (by collection). */
interface Context {
  dates: Dates
  slugs: (collection: string) => readonly string[]
}

/** A number within the field's bounds: 60 where it may be (minutes, a count), else its least. */
function numberOf(field: Field): number {
  const least = field.min ?? 0
  return Math.max(least, Math.min(field.max ?? 60, 60))
}

/**
 * An enum's value: the first one that makes no other field of the collection required
 * (`attendance_mode: online` asks for no `location`), else its first.
 */
function enumOf(name: string, field: Field, siblings: Readonly<Record<string, Field>>): string {
  const values = field.values ?? []
  const asks = (value: string) => Object.values(siblings).some((other) => other.required_when?.[name]?.includes(value))
  return values.find((v) => !asks(v)) ?? values[0] ?? ''
}

/** A scalar placeholder, as YAML (JSON strings are YAML strings); undefined for a field with parts. */
function scalarOf(
  path: readonly string[],
  person: boolean,
  field: Field,
  siblings: Readonly<Record<string, Field>>,
  context: Context,
): string | undefined {
  const { dates } = context
  switch (field.type) {
    case 'string':
    case 'text':
    case 'markdown':
      return JSON.stringify(placeholderText(path, field, person))
    case 'date':
      return dates.today
    case 'datetime':
      return path.at(-1)!.startsWith('end') ? dates.laterEnd : dates.later
    case 'timezone':
      return 'Europe/London'
    case 'url':
      return 'https://www.example.com/'
    case 'email':
      return 'name@example.com'
    case 'integer':
    case 'number':
      return String(numberOf(field))
    case 'boolean':
      return 'false'
    case 'enum':
      return enumOf(path.at(-1)!, field, siblings)
    case 'reference':
      // A published item of the collection when it has one (a draft may name a draft too).
      return context.slugs(field.collection ?? '')[0] ?? 'my-first-item'
    default:
      return undefined
  }
}

/**
 * The YAML lines of one field at `indent`, named `key` (or a list entry, with
 * `key` undefined); `path` names it in its placeholder, `person` says it is a
 * part of a person.
 */
function linesOf(
  path: readonly string[],
  person: boolean,
  field: Field,
  siblings: Readonly<Record<string, Field>>,
  context: Context,
  indent: string,
  key: string | undefined,
): string[] {
  const head = key === undefined ? `${indent}- ` : `${indent}${key}: `
  const scalar = scalarOf(path, person, field, siblings, context)
  if (scalar !== undefined) return [`${head}${scalar}`]
  const inner = `${indent}  `
  if (field.type === 'list' && field.of) {
    const count = Math.max(field.min ?? 1, 1)
    const items = Array.from({ length: count }, () =>
      linesOf(path, false, field.of!, {}, context, inner, undefined),
    ).flat()
    return [`${indent}${key}:`, ...items]
  }
  const isPerson = field.type === 'person'
  const body = partsOf(field).flatMap(([part, f]) =>
    linesOf(isPerson ? [part] : [...path, part], isPerson, f, field.fields ?? {}, context, inner, part),
  )
  if (key !== undefined) return [`${indent}${key}:`, ...body]
  // A list entry: the first part on the dash's line.
  const [first, ...rest] = body
  return first ? [`${indent}- ${first.trimStart()}`, ...rest] : [`${indent}- {}`]
}

export function renderTemplate(
  collection: CollectionModel,
  title: string,
  dates: Dates,
  related: readonly string[] = [],
  schedule: { publishAt?: string; expiresAt?: string } = {},
  slugs: (collection: string) => readonly string[] = () => [],
): string {
  const context: Context = { dates, slugs }
  const own = requiredFields(collection.fields).flatMap(([name, field]) =>
    linesOf([name], false, field, collection.fields, context, '', name),
  )
  const lines = [
    '---',
    // JSON strings are valid YAML, so any title survives quoting.
    `title: ${JSON.stringify(title)}`,
    'tags: []',
    `published_at: ${schedule.publishAt ?? dates.today}`,
    ...(schedule.expiresAt ? [`expires_at: ${schedule.expiresAt}`] : []),
    'draft: true',
    ...(related.length ? ['related:', ...related.map((r) => `  - ${r}`)] : []),
    ...own,
    '---',
    '',
    placeholdersOf(collection).body,
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
