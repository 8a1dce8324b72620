/**
 * One frontmatter property of a collection's JSON Schema as a field of the
 * editor at /admin/ (Decap CMS): its widget, whether it is required, its
 * validation (patterns and length bounds, with the messages `npm run check`
 * gives for the same fault) and its hint (the schema's description). Nothing
 * here names a collection's field: every rule reads the schema, so a field
 * added to a schema appears in the editor with no other edit.
 */
import type { SchemaObject } from 'ajv'
import { REFERENCE_PATTERN } from './patterns.ts'
import { MEDIA_KEYWORD } from './schemas/common.ts'

/** A field of the editor's configuration (Decap's `fields` entries). */
export type AdminField = Record<string, unknown> & { name: string; label: string; widget: string }

/** What every field has: its name, label, whether it is required, and its hint. */
interface FieldBase {
  name: string
  label: string
  required: boolean
  hint?: string
}

/** A published item another one may point to under `related`. */
export interface ReferenceOption {
  /** `collection/slug`, the value written to the file. */
  value: string
  label: string
}

/** A property name as a label: `published_at` → `Published at`, `avatar_url` → `Avatar URL`. */
export function labelOf(name: string): string {
  const words = name.split('_').map((w) => (w === 'url' ? 'URL' : w))
  const first = words[0] ?? name
  return [first.charAt(0).toUpperCase() + first.slice(1), ...words.slice(1)].join(' ')
}

/** Stored like `npm run new` writes it: a date, `2026-03-14`. */
const DATE_FORMAT = 'YYYY-MM-DD'
/** An instant with the author's offset, `2027-02-10T11:00:00-05:00` (RFC 3339). */
const DATE_TIME_FORMAT = 'YYYY-MM-DDTHH:mm:ssZ'
/** Longer strings get a multi-line text area. */
const TEXT_AREA_FROM = 300
/** Whether the schema marks the string as naming an image (contract/schemas/common.ts `imageUrl`). */
function namesImage(schema: SchemaObject): boolean {
  return schema[MEDIA_KEYWORD] === 'image'
}

/** The message `npm run check` gives for a value that breaks the schema's `keyword`. */
function messageOf(schema: SchemaObject, keyword: string, fallback: string): string {
  const custom = schema.errorMessage
  if (typeof custom === 'string') return custom
  if (custom && typeof custom === 'object' && typeof custom[keyword] === 'string') return custom[keyword]
  return fallback
}

/** The patterns of `anyOf` as one alternation, when every branch has one (an image: a URL or a local path). */
function alternativesOf(schema: SchemaObject): string | undefined {
  const branches = (schema.anyOf ?? []) as SchemaObject[]
  if (!branches.length || !branches.every((b) => typeof b.pattern === 'string')) return undefined
  return `(?:${branches.map((b) => `(?:${b.pattern as string})`).join('|')})`
}

/**
 * The schema's pattern (or its `anyOf` of patterns) and length bounds as one
 * regular expression and one message, as Decap checks them (one `pattern`
 * per field; empty values are left to `required`).
 */
function patternOf(schema: SchemaObject): [string, string] | undefined {
  const parts: string[] = []
  const messages: string[] = []
  const { minLength, maxLength } = schema as { minLength?: number; maxLength?: number }
  if (minLength !== undefined || maxLength !== undefined) {
    parts.push(`(?=[\\s\\S]{${minLength ?? 0},${maxLength ?? ''}}$)`)
    if (maxLength !== undefined) messages.push(`must NOT have more than ${maxLength} characters`)
    if (minLength !== undefined && minLength > 1) messages.push(`must NOT have fewer than ${minLength} characters`)
  }
  if (typeof schema.pattern === 'string') {
    parts.push(`(?:${schema.pattern})`)
    const fallback =
      schema.format === 'uri' ? 'must be an absolute http(s) URL' : `must match pattern "${schema.pattern}"`
    messages.unshift(messageOf(schema, 'pattern', fallback))
  }
  const alternatives = alternativesOf(schema)
  if (alternatives) {
    parts.push(alternatives)
    messages.unshift(messageOf(schema, 'anyOf', 'must match one of the allowed forms'))
  }
  if (schema.format === 'iana-timezone') {
    parts.push('(?:^[A-Za-z][A-Za-z0-9_+-]*(?:/[A-Za-z0-9_+-]+)*$)')
    messages.unshift(messageOf(schema, 'format', 'must be an IANA time zone name'))
  }
  if (!parts.length) return undefined
  return [`^${parts.join('')}`, messages.join('; ')]
}

function isDateOrDateTime(schema: SchemaObject): boolean {
  const formats = ((schema.anyOf ?? []) as SchemaObject[]).map((s) => s.format)
  return formats.includes('date') && formats.includes('date-time')
}

/** The editor's field for one schema property. */
export function adminField(
  name: string,
  schema: SchemaObject,
  required: boolean,
  references: readonly ReferenceOption[],
): AdminField {
  const base: FieldBase = {
    name,
    label: labelOf(name),
    required,
    ...(schema.description ? { hint: schema.description } : {}),
  }
  if (Array.isArray(schema.enum))
    return { ...base, widget: 'select', options: schema.enum.map((v: unknown) => String(v)) }
  if (schema.type === 'boolean') return { ...base, widget: 'boolean' }
  if (schema.type === 'integer' || schema.type === 'number')
    return {
      ...base,
      widget: 'number',
      value_type: schema.type === 'integer' ? 'int' : 'float',
      ...(schema.minimum !== undefined ? { min: schema.minimum } : {}),
      ...(schema.maximum !== undefined ? { max: schema.maximum } : {}),
    }
  if (schema.type === 'object') return objectField(base, schema, references)
  if (schema.type === 'array') return listField(base, schema, references)
  if (isDateOrDateTime(schema))
    return { ...base, widget: 'datetime', format: DATE_FORMAT, date_format: DATE_FORMAT, time_format: false }
  if (schema.format === 'date-time')
    return { ...base, widget: 'datetime', format: DATE_TIME_FORMAT, date_format: DATE_FORMAT, time_format: 'HH:mm' }
  const pattern = patternOf(schema)
  // An image: uploaded into the item's folder (the collection's media_folder, admin-config.ts), or an absolute URL.
  if (namesImage(schema)) return { ...base, widget: 'image', choose_url: true, ...(pattern ? { pattern } : {}) }
  // A URL is one line however long it may be.
  const widget = (schema.maxLength ?? 0) > TEXT_AREA_FROM && schema.format !== 'uri' ? 'text' : 'string'
  return { ...base, widget, ...(pattern ? { pattern } : {}) }
}

function objectField(base: FieldBase, schema: SchemaObject, references: readonly ReferenceOption[]): AdminField {
  let fields = adminFields(schema, references)
  // Decap checks a nested required field even when the optional object is left empty:
  // the form leaves them optional and says so, and `npm run check` holds a half-filled object to the schema.
  if (!base.required)
    fields = fields.map((f) =>
      f.required
        ? { ...f, required: false, hint: `${f.hint ? `${f.hint} ` : ''}Required when ${base.label} is given.` }
        : f,
    )
  const summary = fields[0] ? `{{fields.${fields[0].name}}}` : undefined
  return { ...base, widget: 'object', fields, ...(summary ? { summary } : {}) }
}

function listField(base: FieldBase, schema: SchemaObject, references: readonly ReferenceOption[]): AdminField {
  const items = (schema.items ?? {}) as SchemaObject
  const bounds = {
    ...(schema.minItems !== undefined ? { min: schema.minItems } : {}),
    ...(schema.maxItems !== undefined ? { max: schema.maxItems } : {}),
  }
  // References: a choice among the published items, as collection/slug.
  if (items.pattern === REFERENCE_PATTERN)
    return {
      ...base,
      widget: 'select',
      multiple: true,
      options: references.map((r) => ({ label: r.label, value: r.value })),
      ...bounds,
    }
  if (items.type === 'object') {
    const fields = adminFields(items, references)
    const summary = fields[0] ? `{{fields.${fields[0].name}}}` : undefined
    return { ...base, widget: 'list', fields, ...(summary ? { summary } : {}), ...bounds }
  }
  const item = adminField(singular(base.name), items, true, references)
  return { ...base, widget: 'list', field: { ...item, label: labelOf(singular(base.name)) }, ...bounds }
}

/** `tags` → `tag`, `products` → `product`: the name of one item of a list. */
function singular(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : name
}

/** Every property of an object schema, in the schema's order. */
export function adminFields(schema: SchemaObject, references: readonly ReferenceOption[]): AdminField[] {
  const required = new Set<string>((schema.required ?? []) as string[])
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>
  return Object.entries(properties).map(([name, property]) =>
    adminField(name, property, required.has(name), references),
  )
}
