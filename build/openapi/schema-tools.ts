/**
 * Turning the frontmatter JSON Schemas (written for ajv) into OpenAPI 3.1
 * schemas: drop the keywords only ajv understands, allow null where the
 * build writes null for an absent field.
 */
import type { SchemaObject } from 'ajv'

/** Keywords of ajv plugins or of the frontmatter files' own identity that mean nothing in OpenAPI. */
const AJV_ONLY = new Set(['errorMessage', '$id'])

/** A deep copy of `schema` without ajv-only keywords. */
export function stripAjvKeywords(schema: SchemaObject): SchemaObject {
  return strip(schema) as SchemaObject
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) if (!AJV_ONLY.has(key)) out[key] = strip(inner)
  return out
}

/** `schema` or null: widens `type` (and `enum`) when it can, else wraps in anyOf. */
export function nullable(schema: SchemaObject): SchemaObject {
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...(schema.enum as unknown[]), null] }
  if (typeof schema.type === 'string' && !schema.anyOf && !schema.oneOf)
    return { ...schema, type: [schema.type, 'null'] }
  return { anyOf: [schema, { type: 'null' }] }
}

/** A property of `schema`, stripped; throws when missing so a schema rename fails the build, not the docs. */
export function propertyOf(schema: SchemaObject, name: string): SchemaObject {
  const property = (schema.properties as Record<string, SchemaObject> | undefined)?.[name]
  if (!property) throw new Error(`schema ${String(schema.$id)} has no property ${name}`)
  return stripAjvKeywords(property)
}

/**
 * A value of an answer that is one of a set the content model decides (a
 * collection's name, a record's type): `x-extensible-enum` instead of `enum`
 * (Zalando's guideline), so clients know more values may come — a team adds
 * a collection without breaking them — and the document still lists today's.
 */
export function extensibleEnum(values: readonly string[], description?: string): SchemaObject {
  return {
    type: 'string',
    'x-extensible-enum': [...values],
    maxLength: MAX_ENUM_VALUE_LENGTH,
    ...(description && { description }),
  }
}

/** The longest value an extensible enum of the document may grow to: a collection's name (60) or a record's type (its label, 80). */
const MAX_ENUM_VALUE_LENGTH = 80
