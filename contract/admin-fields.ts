/**
 * One frontmatter property of a collection's JSON Schema as a field of the
 * editor at /admin/ (Decap CMS): its widget, whether it is required, its
 * validation (a pattern, with the message `npm run check` gives for the same
 * fault, and length bounds) and its hint (the schema's description). Nothing
 * here names a collection's field: every rule reads the schema, so a field
 * added to a schema appears in the editor with no other edit.
 */
import type { SchemaObject } from 'ajv'
import { dateFormOf, lengthBoundsOf, patternOf } from './admin-patterns.ts'
import { MEDIA_KEYWORD, REFERENCE_KEYWORD } from './model/common-fields.ts'

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
  /** For an item of another locale than the default: the default-locale item it translates (`collection/slug`). */
  translates?: string
}

/** The choices of `related`: the default locale's published items, and each other locale's (translations, and fallbacks). */
export interface ReferenceChoices {
  references: readonly ReferenceOption[]
  byLocale?: Readonly<Record<string, readonly ReferenceOption[]>>
}

/**
 * The editor's widget for dates and date-times (admin/datetime-offset.js): a
 * date, and a time with its UTC offset where the schema allows or needs one,
 * written back as entered (`2026-03-14`, `2026-07-21T16:00:00+00:00`).
 */
export const DATE_TIME_WIDGET = 'datetime-offset'
/** The editor's widget for `related` (admin/related.js): a choice among the published items of the locale being written. */
export const RELATED_WIDGET = 'related'

/** A property name as a label: `published_at` → `Published at`, `avatar_url` → `Avatar URL`. */
export function labelOf(name: string): string {
  const words = name.split('_').map((w) => (w === 'url' ? 'URL' : w))
  const first = words[0] ?? name
  return [first.charAt(0).toUpperCase() + first.slice(1), ...words.slice(1)].join(' ')
}

/** Longer strings get a multi-line text area. */
const TEXT_AREA_FROM = 300
/** Whether the schema marks the string as naming an image (contract/model/common-fields.ts `imageUrl`). */
function namesImage(schema: SchemaObject): boolean {
  return schema[MEDIA_KEYWORD] === 'image'
}

/** The editor's field for one schema property. */
export function adminField(
  name: string,
  schema: SchemaObject,
  required: boolean,
  choices: ReferenceChoices,
): AdminField {
  const base: FieldBase = {
    name,
    label: labelOf(name),
    required,
    ...(schema.description ? { hint: schema.description } : {}),
  }
  if (Array.isArray(schema.enum))
    return { ...base, widget: 'select', options: schema.enum.map((v: unknown) => String(v)) }
  // A reference: a choice among the published items of its collection, written as the slug.
  const target = schema[REFERENCE_KEYWORD]
  if (typeof target === 'string' && target !== '*') return referenceField(base, target, choices)
  if (schema.type === 'boolean') return { ...base, widget: 'boolean' }
  if (schema.type === 'integer' || schema.type === 'number')
    return {
      ...base,
      widget: 'number',
      value_type: schema.type === 'integer' ? 'int' : 'float',
      ...(schema.minimum !== undefined ? { min: schema.minimum } : {}),
      ...(schema.maximum !== undefined ? { max: schema.maximum } : {}),
    }
  if (schema.type === 'object') return objectField(base, schema, choices)
  if (schema.type === 'array') return listField(base, schema, choices)
  // A date, or a date-time with its offset, kept as written: the time is optional where a date alone is allowed.
  const date = dateFormOf(schema)
  if (date) return { ...base, widget: DATE_TIME_WIDGET, time: date.time, pattern: date.pattern }
  const pattern = patternOf(schema)
  const rules = { ...(pattern ? { pattern } : {}), ...lengthBoundsOf(schema) }
  // An image: uploaded into the item's folder (the collection's media_folder, admin-config.ts), or an absolute URL.
  if (namesImage(schema)) return { ...base, widget: 'image', choose_url: true, ...rules }
  // Markdown, rendered like the body: the body's editor.
  if (schema.contentMediaType === 'text/markdown') return { ...base, widget: 'markdown', modes: ['raw', 'rich_text'] }
  // A URL is one line however long it may be.
  const widget = (schema.maxLength ?? 0) > TEXT_AREA_FROM && schema.format !== 'uri' ? 'text' : 'string'
  return { ...base, widget, ...rules }
}

function objectField(base: FieldBase, schema: SchemaObject, choices: ReferenceChoices): AdminField {
  let fields = adminFields(schema, choices)
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

function listField(base: FieldBase, schema: SchemaObject, choices: ReferenceChoices): AdminField {
  const items = (schema.items ?? {}) as SchemaObject
  const bounds = {
    ...(schema.minItems !== undefined ? { min: schema.minItems } : {}),
    ...(schema.maxItems !== undefined ? { max: schema.maxItems } : {}),
  }
  // References: a choice among the published items of the locale being written, as collection/slug.
  if (items[REFERENCE_KEYWORD] === '*') return relatedField(base, choices, bounds)
  const target = items[REFERENCE_KEYWORD]
  if (typeof target === 'string') return { ...referenceField(base, target, choices), multiple: true, ...bounds }
  if (items.type === 'object') {
    const fields = adminFields(items, choices)
    const summary = fields[0] ? `{{fields.${fields[0].name}}}` : undefined
    return { ...base, widget: 'list', fields, ...(summary ? { summary } : {}), ...bounds }
  }
  const item = adminField(singular(base.name), items, true, choices)
  return { ...base, widget: 'list', field: { ...item, label: labelOf(singular(base.name)) }, ...bounds }
}

const option = (r: ReferenceOption) => ({ label: r.label, value: r.value })

/**
 * `related`: the default locale's published items as the options; on a
 * multilingual site, each other locale's under `locale_options` (its
 * translations, with the default item each one translates, and the default
 * items it falls back to), which the widget offers in that locale's pane.
 */
function relatedField(base: FieldBase, choices: ReferenceChoices, bounds: Record<string, number>): AdminField {
  const byLocale = Object.entries(choices.byLocale ?? {})
  return {
    ...base,
    widget: RELATED_WIDGET,
    multiple: true,
    options: choices.references.map(option),
    ...(byLocale.length
      ? {
          locale_options: Object.fromEntries(
            byLocale.map(([locale, references]) => [
              locale,
              references.map((r) => ({ ...option(r), ...(r.translates ? { translates: r.translates } : {}) })),
            ]),
          ),
        }
      : {}),
    ...bounds,
  }
}

/** A `reference` field: the published items of its collection (the default locale's), by slug. */
function referenceField(base: FieldBase, collection: string, choices: ReferenceChoices): AdminField {
  const prefix = `${collection}/`
  const options = choices.references
    .filter((r) => r.value.startsWith(prefix))
    .map((r) => ({ label: r.label, value: r.value.slice(prefix.length) }))
  // Decap refuses a select without options: before the collection has an item, the slug is written by hand.
  return options.length ? { ...base, widget: 'select', options } : { ...base, widget: 'string' }
}

/** `tags` → `tag`, `products` → `product`: the name of one item of a list. */
function singular(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : name
}

/** Every property of an object schema, in the schema's order. */
export function adminFields(schema: SchemaObject, choices: ReferenceChoices): AdminField[] {
  const required = new Set<string>((schema.required ?? []) as string[])
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>
  return Object.entries(properties).map(([name, property]) => adminField(name, property, required.has(name), choices))
}
