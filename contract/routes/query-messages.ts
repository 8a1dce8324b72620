/**
 * What a 400 says of a query parameter declared without messages of its own
 * (one made from data, such as a collection's field): what its schema takes,
 * in words, after the parameter's name.
 */
import type { Failure } from './route.ts'
import type { SchemaObject } from './schema.ts'

export const quote = (value: string) => JSON.stringify(value.slice(0, 40))

/** The messages of a parameter declared without its own: what its schema takes. */
export function defaultMessage(schema: SchemaObject): (failure: Failure) => string {
  const takes = describe(schema)
  return ({ keyword, raw }) => {
    if (keyword === 'required') return `is required: ${takes}`
    if (keyword === 'repeated')
      return schema.type === 'integer' ? `must be given once, as ${takes}` : 'must be given once'
    if (schema.enum && schema.type !== 'array') return `must be ${takes}`
    return `must be ${takes}, got ${quote(raw)}`
  }
}

/** What a schema takes, in words: `an integer from 1 to 100`, `one of a, b`. */
function describe(schema: SchemaObject): string {
  if (schema.type === 'integer') return `an integer from ${schema.minimum} to ${schema.maximum}`
  if (schema.type === 'array') {
    const items = (schema.items as SchemaObject | undefined) ?? {}
    return `1 to ${schema.maxItems} values separated by commas, each ${describe(items)}`
  }
  if (schema.enum) return `one of ${(schema.enum as string[]).join(', ')}`
  const parts: string[] = []
  if (schema.format) parts.push(`a ${schema.format}`)
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`)
  if (schema.pattern) parts.push(`matching ${schema.pattern}`)
  return parts.join(', ') || 'a string'
}
