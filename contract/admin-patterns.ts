/**
 * A schema property's validation as the editor at /admin/ (Decap CMS) checks
 * it: one regular expression per field (its pattern, or `anyOf` of patterns)
 * with the message `npm run check` gives for the same fault; its length
 * bounds apart (admin/bounds.js checks them), so that a value gets the
 * message of the one rule it breaks; and the forms a date may take.
 */
import type { SchemaObject } from 'ajv'

/** A calendar date, `2026-03-14`. */
const DATE = '\\d{4}-\\d{2}-\\d{2}'
/** What follows the date in an RFC 3339 date-time: the time and its offset, `T16:00:00+00:00`. */
const TIME_AND_OFFSET = 'T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:\\d{2})'
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
 * The schema's pattern (or its `anyOf` of patterns, or the form its format
 * takes) as one regular expression and its message, as Decap checks them (one
 * `pattern` per field; empty values are left to `required`).
 */
export function patternOf(schema: SchemaObject): [string, string] | undefined {
  const parts: string[] = []
  const messages: string[] = []
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

/**
 * The length bounds of a text property as the editor's fields take them
 * (`max_length`, and `min_length` past 1: a value shorter than 1 is empty,
 * which `required` speaks of).
 */
export function lengthBoundsOf(schema: SchemaObject): { min_length?: number; max_length?: number } {
  const { minLength, maxLength } = schema as { minLength?: number; maxLength?: number }
  return {
    ...(minLength !== undefined && minLength > 1 ? { min_length: minLength } : {}),
    ...(maxLength !== undefined ? { max_length: maxLength } : {}),
  }
}

function isDateOrDateTime(schema: SchemaObject): boolean {
  const formats = ((schema.anyOf ?? []) as SchemaObject[]).map((s) => s.format)
  return formats.includes('date') && formats.includes('date-time')
}

/**
 * A date or date-time property's form in the editor: whether its time is
 * optional (a date alone is allowed) or required (an instant), and the
 * pattern that says so, with the schema's message.
 */
export function dateFormOf(
  schema: SchemaObject,
): { time: 'optional' | 'required'; pattern: [string, string] } | undefined {
  const optional = isDateOrDateTime(schema)
  if (!optional && schema.format !== 'date-time') return undefined
  const fallback = optional ? 'must be a date or a date-time with offset' : 'must be a date-time with offset'
  return {
    time: optional ? 'optional' : 'required',
    pattern: [
      `^${DATE}${optional ? `(?:${TIME_AND_OFFSET})?` : TIME_AND_OFFSET}$`,
      messageOf(schema, 'format', fallback),
    ],
  }
}
