/**
 * The content model from content/site.yaml's `collections:`, once the file
 * has passed its schema (site-schema.ts), and the mistakes a schema cannot
 * see, each at its line and column: a collection named like a route of the
 * table or not a URL-safe slug, a field named like a common field, a
 * reference to a collection there is not, a setting of another type, a
 * dated collection without its times. Every one is reported at once.
 */
import { commonProperties, commonTrailing } from '../../contract/model/common-fields.ts'
import {
  COMMON_SETTINGS,
  FILTER_TYPES,
  namesPeople,
  TYPE_SETTINGS,
  type Field,
  type FieldType,
} from '../../contract/model/fields.ts'
import { listed, type CollectionModel, type ContentModel } from '../../contract/model/model.ts'
import { SLUG_PATTERN } from '../../contract/patterns.ts'
import { COMMON_FIELDS, FULL_ONLY_FIELDS, LOCALE_FIELDS } from '../../contract/records.ts'
import { LIMIT, LIST_FILTERS, LOCALE, PAGE } from '../../contract/routes/parameters.ts'
import { reservedCollectionNames } from '../../contract/routes/reserved.ts'
import { closest } from '../../contract/did-you-mean.ts'
import type { ContentError } from './errors.ts'
import { siteError, type SiteFile } from './site-errors.ts'
import { FIELD_NAME_PATTERN, FIELD_SETTINGS } from './site-schema.ts'

const SLUG_RE = new RegExp(SLUG_PATTERN)
const FIELD_NAME_RE = new RegExp(FIELD_NAME_PATTERN)
/** The fields every collection has, in the frontmatter or the record: no collection's own field takes their names. */
const COMMON_FIELD_NAMES: readonly string[] = [
  ...new Set([
    ...Object.keys(commonProperties([])),
    ...Object.keys(commonTrailing),
    ...COMMON_FIELDS,
    ...FULL_ONLY_FIELDS,
    ...LOCALE_FIELDS,
  ]),
]
/** The record fields a date order may name besides a collection's own dates. */
const COMMON_ORDERS = ['published_at', 'updated_at']

type Declared = Record<string, unknown>
type Path = (string | number)[]

/** `name: string` written out as `{ type: string }`; every nested field too. */
export function fieldOf(declared: unknown): Field {
  const field = (typeof declared === 'string' ? { type: declared } : { ...(declared as Declared) }) as Field
  if (field.of !== undefined) field.of = fieldOf(field.of)
  if (field.fields !== undefined)
    field.fields = Object.fromEntries(Object.entries(field.fields).map(([name, inner]) => [name, fieldOf(inner)]))
  return field
}

/** The model of `collections` (as the schema accepted them), and the errors that keep it from being one. */
export function contentModel(
  collections: Record<string, Declared>,
  file: SiteFile,
  errors: ContentError[],
): ContentModel {
  const names = Object.keys(collections)
  const reserved = reservedCollectionNames()
  const at = (path: Path, message: string, key = false) => errors.push(siteError(file, path, message, { key }))
  const out: Record<string, CollectionModel> = {}
  const types = new Map<string, string>()
  for (const name of names) {
    const where: Path = ['collections', name]
    if (!SLUG_RE.test(name) || name.length > 60)
      at(where, 'must be a URL-safe name: lowercase letters, digits and single hyphens, like press-releases', true)
    else if (reserved.includes(name))
      at(where, `is a path of the API already (/api/${name}): name the collection otherwise, like our-${name}`, true)
    const declared = collections[name]!
    const label = String(declared.label ?? name)
    const type = label.toLowerCase().replace(/\s+/g, '_')
    const twin = types.get(type)
    if (twin) at([...where, 'label'], `is ${twin}'s label too: each collection's items need their own name`)
    types.set(type, name)
    const fields = Object.fromEntries(
      Object.entries((declared.fields ?? {}) as Declared).map(([field, value]) => [field, fieldOf(value)]),
    )
    for (const [field, value] of Object.entries(fields)) {
      const path = [...where, 'fields', field]
      if (COMMON_FIELD_NAMES.includes(field))
        at(path, `is a field every collection has: name ${name}'s own field otherwise`, true)
      checkField(value, path, names, fields, at)
    }
    const dated = declared.dated === true
    if (dated) checkDated(fields, [...where, 'dated'], at)
    const sortField = typeof declared.order === 'string' ? declared.order : dated ? 'starts_at' : 'published_at'
    const dates = Object.keys(fields).filter((f) => fields[f]!.type === 'date' || fields[f]!.type === 'datetime')
    const orders = [...COMMON_ORDERS, ...dates.filter((f) => fields[f]!.required)]
    if (declared.order !== undefined && !orders.includes(sortField))
      at([...where, 'order'], `must be a date every item has, newest first: one of ${orders.join(', ')}`)
    out[name] = {
      name,
      type,
      label,
      path: String(declared.path ?? `/${name}`).replace(/\/+$/, ''),
      title: String(declared.title ?? name),
      scope: String(declared.scope ?? `content.${name}.read`),
      dated,
      sortField,
      sortKeys: [...dates, 'published_at', 'updated_at', 'title'],
      people: Object.keys(fields).filter((f) => namesPeople(fields[f]!)),
      fields,
    }
  }
  return { names, collections: out }
}

/** The query parameters every list has: a filter field of one of these names would shadow it. */
const LIST_PARAMETERS = [LIMIT, PAGE, LOCALE, ...LIST_FILTERS]
  .map((p) => p.name)
  .concat(['sort', 'fields', 'q', 'collection'])

/** The mistakes of one field (and of the fields inside it) the schema does not see. */
function checkField(
  field: Field,
  path: Path,
  collections: readonly string[],
  siblings: Readonly<Record<string, Field>>,
  at: (path: Path, message: string, key?: boolean) => void,
): void {
  const name = String(path.at(-1))
  if (typeof path.at(-2) === 'string' && path.at(-2) === 'fields' && !FIELD_NAME_RE.test(name))
    at(path, 'must be a field name in snake_case: lowercase letters and digits, words joined by _', true)
  const type = field.type as FieldType
  const own = TYPE_SETTINGS[type]
  if (!own) return
  // A setting no type has is the site schema's to name (site-schema.ts): said once.
  for (const setting of Object.keys(field) as (keyof Field)[])
    if (!COMMON_SETTINGS.includes(setting) && !own.includes(setting) && isFieldSetting(setting))
      at(
        [...path, setting],
        `is not a setting of a ${type} field (${own.length ? `its own: ${own.join(', ')}` : 'it has none of its own'})`,
        true,
      )
  if (type === 'reference' && typeof field.collection === 'string' && !collections.includes(field.collection)) {
    const close = closest(field.collection, collections, 3)
    at(
      [...path, 'collection'],
      `is not a collection (${close ? `did you mean ${close}? ` : ''}collections: ${collections.join(', ')})`,
    )
  }
  if (field.filter && !FILTER_TYPES.includes(type))
    at([...path, 'filter'], `applies to ${listed(FILTER_TYPES, 'or')} fields only, not to a ${type}`)
  else if (field.filter && path.length === 4 && LIST_PARAMETERS.includes(name))
    at(
      [...path, 'filter'],
      `would be the list parameter ${name}=, which lists have already: rename the field to filter by it, like item_${name}`,
    )
  if (type === 'enum' && field.default !== undefined && !field.values?.includes(String(field.default)))
    at([...path, 'default'], `must be one of the values (${(field.values ?? []).join(', ')})`)
  if (field.min !== undefined && field.max !== undefined && field.min > field.max)
    at([...path, 'min'], `must not be more than max (${field.max})`)
  for (const [other, values] of Object.entries(field.required_when ?? {})) {
    const known = siblings[other]
    if (!known) at([...path, 'required_when', other], `is not a field of this collection`, true)
    else if (known.type === 'enum')
      for (const [i, value] of values.entries())
        if (!known.values?.includes(value))
          at([...path, 'required_when', other, i], `is not one of ${other}'s values (${known.values?.join(', ')})`)
  }
  if (field.of) checkField(field.of, [...path, 'of'], collections, {}, at)
  for (const [inner, value] of Object.entries(field.fields ?? {}))
    checkField(value, [...path, 'fields', inner], collections, field.fields!, at)
}

/** A dated collection's items start at a time, in a zone: calendars and `when=upcoming` read them. */
function checkDated(
  fields: Readonly<Record<string, Field>>,
  path: Path,
  at: (path: Path, message: string, key?: boolean) => void,
): void {
  const starts = fields.starts_at
  if (starts?.type !== 'datetime' || !starts.required)
    at(path, 'needs its items to start at a time: declare starts_at: { type: datetime, required: true }', true)
  if (fields.timezone?.type !== 'timezone')
    at(path, 'needs the zone its items are in: declare timezone: { type: timezone, required: true }', true)
  const ends = fields.ends_at
  if (ends && ends.type !== 'datetime') at(path, 'needs ends_at, where it has one, to be a datetime', true)
}

function isFieldSetting(name: string): boolean {
  return (FIELD_SETTINGS as readonly string[]).includes(name)
}
