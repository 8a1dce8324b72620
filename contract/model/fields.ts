/**
 * The field vocabulary of the content model: what a collection's `fields`
 * in content/site.yaml may declare (`name: string` is short for
 * `name: { type: string }`), and the JSON Schema a field compiles to. One
 * declaration, several readers: the build validates frontmatter with the
 * schema (ajv), the OpenAPI document describes records from it
 * (build/openapi/records.ts), the editor's fields come from it
 * (contract/admin-fields.ts), and the MCP model tool shows the declaration.
 *
 * A field's schema follows its declaration: `type` first, then what the type
 * always says (a URL's format and length), then each setting in the order it
 * is written, then the bounds a type has unless told (a string's largest
 * length), so the document states a bound for everything.
 *
 * @example fieldSchema({ type: 'string', min: 1, max: 80 }) // { type: 'string', minLength: 1, maxLength: 80 }
 */
import type { SchemaObject } from 'ajv'
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from '../patterns.ts'
import { deprecatedField, type Deprecation } from '../routes/deprecation.ts'
import { avatarUrl, dateTime, httpUrl, image, person, REFERENCE_KEYWORD, timezone } from './common-fields.ts'

export const FIELD_TYPES = [
  'string',
  'text',
  'markdown',
  'date',
  'datetime',
  'timezone',
  'url',
  'email',
  'integer',
  'number',
  'boolean',
  'enum',
  'list',
  'object',
  'image',
  'reference',
  'person',
] as const
export type FieldType = (typeof FIELD_TYPES)[number]

/** One field as declared (the shorthand written out): a plain JSON value, carried by the manifest too. */
export interface Field {
  type: FieldType
  /** Every item must have it (the file's, or its `default`). */
  required?: boolean
  /** Shown in the OpenAPI document, the editor and the model tool. */
  description?: string
  /** The record's value when the file has none (else null, or [] for a list). */
  default?: string | number | boolean
  /** On its way out, through the lifecycle's deprecation (docs/api-lifecycle.md). */
  deprecated?: Deprecation
  /** A query parameter of the collection's list (enum, string and boolean fields). */
  filter?: boolean
  /** The least length (text), value (numbers) or number of items (lists). */
  min?: number
  /** The largest length, value or number of items. */
  max?: number
  /** A regular expression text must match. */
  pattern?: string
  /** A list's items are each different. */
  unique?: boolean
  /** An enum's values. */
  values?: string[]
  /** A list's item. */
  of?: Field
  /** An object's fields; a person's own besides name, slug, title and avatar_url. */
  fields?: Record<string, Field>
  /** A reference's collection. */
  collection?: string
  /** Required only while other fields have one of these values (`attendance_mode: [in_person, hybrid]`). */
  required_when?: Record<string, string[]>
}

/** The settings each type takes besides those of every field (the model check names any other). */
export const TYPE_SETTINGS: Record<FieldType, readonly (keyof Field)[]> = {
  string: ['min', 'max', 'pattern'],
  text: ['min', 'max', 'pattern'],
  markdown: ['min', 'max'],
  date: [],
  datetime: [],
  timezone: [],
  url: ['max'],
  email: [],
  integer: ['min', 'max'],
  number: ['min', 'max'],
  boolean: [],
  enum: ['values'],
  list: ['min', 'max', 'unique', 'of'],
  object: ['fields'],
  image: [],
  reference: ['collection'],
  person: ['fields'],
}

/** What every field may say, whatever its type. */
export const COMMON_SETTINGS: readonly (keyof Field)[] = [
  'type',
  'required',
  'description',
  'default',
  'deprecated',
  'filter',
  'required_when',
]

/** The types `filter: true` applies to: a query parameter matches them exactly. */
export const FILTER_TYPES: readonly FieldType[] = ['enum', 'string', 'boolean']

/** The largest length of text, and number of items, a field has unless it says. */
export const DEFAULT_BOUNDS = { string: 1000, text: 10_000, markdown: 50_000, email: 254, list: 100 } as const

const DATE_MESSAGE = 'must be a date like 2026-03-14'

/** What a type's schema says before its declared settings: its type and what the type implies. */
function implied(field: Field): SchemaObject {
  switch (field.type) {
    case 'string':
    case 'text':
      return { type: 'string' }
    case 'markdown':
      return { type: 'string', contentMediaType: 'text/markdown' }
    case 'date':
      return { type: 'string', format: 'date', maxLength: 10, errorMessage: DATE_MESSAGE }
    case 'datetime':
      return { ...dateTime }
    case 'timezone':
      return { ...timezone }
    case 'url':
      return { ...httpUrl }
    case 'email':
      return { type: 'string', format: 'email' }
    case 'integer':
      return { type: 'integer', format: 'int32' }
    case 'number':
      return { type: 'number' }
    case 'boolean':
      return { type: 'boolean' }
    case 'enum':
      return {}
    case 'list':
      return { type: 'array' }
    case 'object': {
      const required = requiredOf(field.fields ?? {})
      return { type: 'object', additionalProperties: false, ...(required.length ? { required } : {}) }
    }
    case 'person': {
      // A person's own fields go between the ones every person has and the portrait.
      const own = field.fields ?? {}
      const properties = { ...(person.properties as object), ...propertiesOf(own), avatar_url: avatarUrl }
      return { ...person, required: [...(person.required as string[]), ...requiredOf(own)], properties }
    }
    case 'image':
      return structuredClone(image)
    case 'reference':
      return {
        type: 'string',
        pattern: SLUG_PATTERN,
        maxLength: MAX_SLUG_LENGTH,
        [REFERENCE_KEYWORD]: field.collection,
        errorMessage: { pattern: `must be the slug of an item of ${field.collection}, like my-first-post` },
      }
  }
}

/** The keywords one declared setting writes, in place. */
function keywords(field: Field, setting: keyof Field): SchemaObject {
  const value = field[setting]
  const lengths = field.type !== 'integer' && field.type !== 'number' && field.type !== 'list'
  switch (setting) {
    case 'description':
      return { description: value }
    case 'min':
      return { [field.type === 'list' ? 'minItems' : lengths ? 'minLength' : 'minimum']: value }
    case 'max':
      return { [field.type === 'list' ? 'maxItems' : lengths ? 'maxLength' : 'maximum']: value }
    case 'pattern':
      return { pattern: value }
    case 'unique':
      return value ? { uniqueItems: true } : {}
    case 'values':
      return { enum: [...(value as string[])] }
    case 'of':
      return { items: fieldSchema(value as Field) }
    case 'fields':
      return field.type === 'object' ? { properties: propertiesOf(value as Record<string, Field>) } : {}
    default:
      // type, required, default, filter, collection, required_when: said elsewhere, or nothing to validate.
      return {}
  }
}

/** The bounds a type has when the declaration gives none. */
function bounds(field: Field, schema: SchemaObject): SchemaObject {
  const type = field.type
  if (type === 'list') return schema.maxItems === undefined ? { maxItems: DEFAULT_BOUNDS.list } : {}
  if (type === 'integer')
    return {
      ...(schema.minimum === undefined ? { minimum: -2_147_483_648 } : {}),
      ...(schema.maximum === undefined ? { maximum: 2_147_483_647 } : {}),
    }
  if (type === 'string' || type === 'text' || type === 'markdown' || type === 'email')
    return schema.maxLength === undefined ? { maxLength: DEFAULT_BOUNDS[type] } : {}
  return {}
}

/** The frontmatter JSON Schema of one field. */
export function fieldSchema(field: Field): SchemaObject {
  let schema: SchemaObject = implied(field)
  for (const setting of Object.keys(field) as (keyof Field)[]) Object.assign(schema, keywords(field, setting))
  Object.assign(schema, bounds(field, schema))
  if (field.deprecated) schema = deprecatedField(schema, field.deprecated)
  return schema
}

/** The properties of an object's (or a collection's) fields, in their order. */
export function propertiesOf(fields: Readonly<Record<string, Field>>): Record<string, SchemaObject> {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, fieldSchema(field)]))
}

/** The fields every item must have: those `required` (a conditional requirement is the collection's `if`). */
export function requiredOf(fields: Readonly<Record<string, Field>>): string[] {
  return Object.entries(fields).flatMap(([name, f]) => (f.required && !f.required_when ? [name] : []))
}

/** Whether the field holds a list of people, or one person (`author=` finds items by them). */
export function namesPeople(field: Field): boolean {
  return field.type === 'person' || (field.type === 'list' && field.of?.type === 'person')
}

/** The value a record has for the field when the file gives none. */
export function fallbackOf(field: Field): unknown {
  if (field.default !== undefined) return field.default
  return field.type === 'list' ? [] : null
}
