/**
 * The checks of a query parameter's JSON Schema, as closures made once: of an
 * integer, of a string (its values, length, pattern, format, alternatives)
 * and of a comma-separated list of strings. Each reports the keyword a value
 * breaks, as the reader's messages name it. A keyword they do not check is an
 * error when the schema is compiled, not a bound the document states and
 * nothing enforces.
 */
import { parseDateTime } from '../query-values.ts'
import type { Failure, QueryParameter } from './route.ts'
import type { SchemaObject } from './schema.ts'

/** Check of a string: the keyword it breaks, or undefined when it passes. */
type Check = (value: string) => string | undefined

const DATE = /^\d{4}-\d{2}-\d{2}$/
const FORMATS: Record<string, (value: string) => boolean> = {
  date: (value) => DATE.test(value) && parseDateTime(`${value}T00:00:00Z`) !== undefined,
  'date-time': (value) => parseDateTime(value) !== undefined,
}
/** Keywords that describe and bound nothing. */
const ANNOTATIONS = new Set(['description', 'default', 'examples', 'title', 'deprecated'])

/** An integer's bounds (the safe integers where the schema has none). */
export function integerBounds(schema: SchemaObject, where: string): { minimum: number; maximum: number } {
  known(schema, ['type', 'format', 'minimum', 'maximum'], where)
  const { minimum = Number.MIN_SAFE_INTEGER, maximum = Number.MAX_SAFE_INTEGER } = schema as {
    minimum?: number
    maximum?: number
  }
  return { minimum, maximum }
}

/**
 * An array's checks in the order a message reports them: its items, the
 * declaration's own rule (which may be stricter than uniqueness: each sort
 * field once, either way), then its uniqueness and size.
 */
export function listCheck(
  schema: SchemaObject,
  where: string,
  rule: QueryParameter['rule'],
): (items: readonly string[], raw: string) => Failure | undefined {
  known(schema, ['type', 'items', 'minItems', 'maxItems', 'uniqueItems'], where)
  const item = stringCheck((schema.items as SchemaObject | undefined) ?? {}, `${where} (items)`)
  const {
    minItems = 0,
    maxItems = Number.POSITIVE_INFINITY,
    uniqueItems,
  } = schema as {
    minItems?: number
    maxItems?: number
    uniqueItems?: boolean
  }
  return (items, raw) => {
    for (const value of items) {
      const keyword = item(value)
      if (keyword !== undefined) return { keyword, raw, item: value }
    }
    const broken = rule?.(items)
    if (broken !== undefined) return { keyword: 'rule', raw, item: broken }
    if (uniqueItems) {
      const twice = items.find((value, i) => items.indexOf(value) !== i)
      if (twice !== undefined) return { keyword: 'uniqueItems', raw, item: twice }
    }
    if (items.length < minItems) return { keyword: 'minItems', raw }
    if (items.length > maxItems) return { keyword: 'maxItems', raw }
    return undefined
  }
}

/** A string's checks, in a fixed order: its set of values, its length, its pattern, its format, its alternatives. */
export function stringCheck(schema: SchemaObject, where: string): Check {
  known(schema, ['type', 'enum', 'minLength', 'maxLength', 'pattern', 'format', 'anyOf'], where)
  if (schema.type !== undefined && schema.type !== 'string')
    throw new Error(`${where}: type ${schema.type} is not read`)
  const checks: Check[] = []
  if (schema.enum) {
    const values = new Set<unknown>(schema.enum as unknown[])
    checks.push((value) => (values.has(value) ? undefined : 'enum'))
  }
  const { minLength, maxLength } = schema as { minLength?: number; maxLength?: number }
  if (minLength !== undefined) checks.push((value) => (characters(value) >= minLength ? undefined : 'minLength'))
  if (maxLength !== undefined)
    checks.push((value) => (value.length <= maxLength || characters(value) <= maxLength ? undefined : 'maxLength'))
  if (schema.pattern !== undefined) {
    const pattern = new RegExp(schema.pattern as string, 'u')
    checks.push((value) => (pattern.test(value) ? undefined : 'pattern'))
  }
  if (schema.format !== undefined) {
    const format = FORMATS[schema.format as string]
    if (!format) throw new Error(`${where}: format ${schema.format} is not read`)
    checks.push((value) => (format(value) ? undefined : 'format'))
  }
  if (schema.anyOf) {
    const alternatives = (schema.anyOf as SchemaObject[]).map((s, i) => stringCheck(s, `${where} (anyOf ${i})`))
    checks.push((value) => (alternatives.some((check) => check(value) === undefined) ? undefined : 'anyOf'))
  }
  return (value) => {
    for (const check of checks) {
      const keyword = check(value)
      if (keyword !== undefined) return keyword
    }
    return undefined
  }
}

function known(schema: SchemaObject, keywords: readonly string[], where: string): void {
  for (const keyword of Object.keys(schema))
    if (!keywords.includes(keyword) && !ANNOTATIONS.has(keyword))
      throw new Error(`${where}: the query reader does not check ${keyword}`)
}

/** Characters as JSON Schema counts them (code points): a pair of surrogates is one. */
function characters(value: string): number {
  let count = value.length
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdbff) count--
  }
  return count
}
