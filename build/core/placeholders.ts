/**
 * The placeholders `npm run new` writes where only the author can say what
 * goes (scaffold/templates.ts writes them from here), and how the check finds
 * them again: an item published with one would publish `Your Name` as its
 * author. They pass the schema on purpose (a new draft is valid), so the
 * check names them by value, field by field, once the item is no draft.
 * They follow from the content model: each text field a new item must have
 * (and each of its parts a list or object must have) gets its name in words.
 */
import type { Field } from '../../contract/model/fields.ts'
import type { CollectionModel } from '../../contract/model/model.ts'
import { pathToField } from './locate.ts'

export interface Placeholders {
  /** By field, `[]` standing for any index of a list (`authors[].name`): the text written there. */
  fields: Record<string, string>
  /** The body's one paragraph. */
  body: string
}

/** `customer`, `industry` → `Customer industry`; a person's name → `Your Name`. */
export function placeholderText(path: readonly string[], field: Field, person = false): string {
  if (person && path.at(-1) === 'name') return 'Your Name'
  const words = path.join(' ').replaceAll('_', ' ')
  const text = `${words.charAt(0).toUpperCase()}${words.slice(1)}`
  const long = field.type === 'text' || field.type === 'markdown' ? `${text}: write it here.` : text
  return long.padEnd(field.min ?? 0, '.').slice(0, field.max ?? long.length)
}

/** The fields every item must have, in the model's order. */
export function requiredFields(fields: Readonly<Record<string, Field>>): [string, Field][] {
  return Object.entries(fields).filter(([, f]) => f.required && !f.required_when)
}

/** The parts a new value of an object, person or image has: those it must have. */
export function partsOf(field: Field): [string, Field][] {
  if (field.type === 'image')
    return [
      ['url', { type: 'url' }],
      ['alt', { type: 'string' }],
    ]
  if (field.type === 'person') return [['name', { type: 'string' }], ...requiredFields(field.fields ?? {})]
  return requiredFields(field.fields ?? {})
}

const TEXT = new Set(['string', 'text', 'markdown'])
const made = new WeakMap<CollectionModel, Placeholders>()

/** The placeholders of a collection's template, by field path. */
export function placeholdersOf(collection: CollectionModel): Placeholders {
  let placeholders = made.get(collection)
  if (placeholders) return placeholders
  const fields: Record<string, string> = {}
  const walk = (field: Field, path: string[], key: string, person: boolean) => {
    if (TEXT.has(field.type)) fields[key] = placeholderText(path, field, person)
    else if (field.type === 'list' && field.of) walk(field.of, path, `${key}[]`, false)
    else
      for (const [part, f] of partsOf(field))
        walk(f, field.type === 'person' ? [part] : [...path, part], `${key}.${part}`, field.type === 'person')
  }
  for (const [name, field] of requiredFields(collection.fields)) walk(field, [name], name, false)
  placeholders = {
    fields,
    body: `Write the ${collection.label} here. The first paragraph becomes the summary unless \`summary\` is set.`,
  }
  made.set(collection, placeholders)
  return placeholders
}

/** A placeholder left in an item: where (a frontmatter path, or the body's line from its start) and which. */
export type FoundPlaceholder =
  | { path: (string | number)[]; field: string; text: string }
  | { bodyLine: number; text: string }

/** The placeholders of `collection` left in `data` (the frontmatter) and `body`, in the order written. */
export function placeholdersIn(collection: CollectionModel, data: unknown, body: string): FoundPlaceholder[] {
  const { fields, body: paragraph } = placeholdersOf(collection)
  const found: FoundPlaceholder[] = []
  const walk = (value: unknown, path: (string | number)[]) => {
    if (typeof value === 'string') {
      const pattern = pathToField(path.map((p) => (typeof p === 'number' ? -1 : p))).replaceAll('[-1]', '[]')
      if (fields[pattern] === value) found.push({ path, field: pathToField(path), text: value })
    } else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, [...path, i])
    } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k])
  }
  walk(data, [])
  const at = body.indexOf(paragraph)
  if (at >= 0) found.push({ bodyLine: body.slice(0, at).split('\n').length - 1, text: paragraph })
  return found
}
