/**
 * The content model: the collections a project declares in content/site.yaml
 * (`collections:`), each with its fields in the vocabulary of fields.ts. The
 * build reads it once (build/core/site.ts) and writes it into the manifest;
 * the gateway learns it from there, never from an import. Everything that
 * names a collection or its fields — routes, records, validation, OpenAPI,
 * search, feeds, calendars, the editor, MCP — iterates this.
 */
import type { SchemaObject } from 'ajv'
import { commonProperties, commonRequired, commonTrailing } from './common-fields.ts'
import { propertiesOf, requiredOf, type Field } from './fields.ts'

/** A collection's name: its URL segment and folder, e.g. `blog-posts` (a slug the model check accepted). */
export type CollectionName = string

export interface CollectionModel {
  /** URL and folder name, e.g. `blog-posts`. */
  name: CollectionName
  /** The record `type`: the label in snake_case, e.g. `blog_post`. */
  type: string
  /** Human label, singular. */
  label: string
  /** Where its pages are on the marketing site (`/blog`), without a trailing slash. */
  path: string
  /** Its title in lists of collections (feeds, the editor, llms.txt). */
  title: string
  /** OAuth scope that grants read access to it. */
  scope: string
  /** Whether its items start at a time (`starts_at`, `timezone`): calendars, `when=upcoming|past`, list_upcoming. */
  dated: boolean
  /** The field its list is ordered by, newest first (ties by slug). */
  sortField: string
  /** The fields `sort=` may name (each ascending, or descending with `-`). */
  sortKeys: readonly string[]
  /** The fields listing people (`author=` looks in them); none, and `author=` does not apply. */
  people: readonly string[]
  /** Its own fields (beyond the common ones), in record order. */
  fields: Readonly<Record<string, Field>>
}

export interface ContentModel {
  /** Every collection, in the order site.yaml declares them: lists, feeds, search and the document follow it. */
  names: readonly CollectionName[]
  collections: Readonly<Record<CollectionName, CollectionModel>>
}

/** The collection of `name`, when the model has it. */
export function collectionOf(model: ContentModel, name: string): CollectionModel | undefined {
  return Object.hasOwn(model.collections, name) ? model.collections[name] : undefined
}

export function isCollectionName(model: ContentModel, value: string): boolean {
  return collectionOf(model, value) !== undefined
}

/** The dated collections, by name: the order calendars and `when` list them in. */
export function datedCollections(model: ContentModel): CollectionName[] {
  return model.names.filter((name) => model.collections[name]!.dated).sort()
}

/** Every field of any collection that lists people. */
export function peopleFields(model: ContentModel): string[] {
  return [...new Set(model.names.flatMap((name) => model.collections[name]!.people))]
}

/** `a`, `a and b`, `a, b and c`. */
export function listed(names: readonly string[], and = 'and'): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${and} ${names.at(-1)}`
}

const schemas = new WeakMap<CollectionModel, SchemaObject>()

/** The JSON Schema of a collection's frontmatter: the common fields, its own, then the lead image. */
export function frontmatterSchema(collection: CollectionModel, model: ContentModel): SchemaObject {
  let schema = schemas.get(collection)
  if (schema) return schema
  const { fields, type, label } = collection
  schema = {
    $id: `${type.replaceAll('_', '-')}.frontmatter`,
    title: `${label.charAt(0).toUpperCase()}${label.slice(1)} frontmatter`,
    type: 'object',
    additionalProperties: false,
    required: [...commonRequired, ...requiredOf(fields)],
    properties: { ...commonProperties(model.names), ...propertiesOf(fields), ...commonTrailing },
    ...conditions(fields),
  }
  schemas.set(collection, schema)
  return schema
}

/**
 * The requirements that hold only while another field has some values
 * (`required_when`): an `if`/`then` (several in `allOf`), whose message
 * names the values where the field is not needed when the other field is an
 * enum (`is required unless attendance_mode is online`).
 */
function conditions(fields: Readonly<Record<string, Field>>): SchemaObject {
  const rules = Object.entries(fields).flatMap(([name, field]) =>
    Object.entries(field.required_when ?? {}).map(([other, values]) => {
      const all = fields[other]?.values
      const rest = all?.filter((v) => !values.includes(v))
      const message = rest?.length
        ? `is required unless ${other} is ${listed(rest, 'or')}`
        : `is required when ${other} is ${listed(values, 'or')}`
      return {
        if: { properties: { [other]: { enum: [...values] } }, required: [other] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
        then: { required: [name], errorMessage: { required: { [name]: message } } },
      }
    }),
  )
  if (rules.length === 0) return {}
  return rules.length === 1 ? rules[0]! : { allOf: rules }
}
