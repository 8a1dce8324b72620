/**
 * ajv's errors in the author's terms: what is wrong with the value written
 * and how to fix it ("lists \"dbt\" twice", "November has 30 days"), where
 * ajv says "must NOT have duplicate items (items ## 1 and 0 are identical)"
 * or "must match format \"date\"".
 */
import type { ErrorObject } from 'ajv'

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** The message for `error` about `value`, or undefined to keep the schema's own (its errorMessage). */
export function schemaMessage(error: ErrorObject, value: unknown): string | undefined {
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'uniqueItems': {
      const twice = Array.isArray(value) ? value[Number(params.i)] : undefined
      return `lists ${JSON.stringify(twice)} twice: remove one of them`
    }
    case 'type':
      return typeMessage(String(params.type), value)
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must have at least ${params.limit} characters`
    case 'maxLength':
      return `must have at most ${params.limit} characters (it has ${String(value).length})`
    case 'minItems':
      return `must list at least ${params.limit} (it lists ${Array.isArray(value) ? value.length : 0})`
    case 'maxItems':
      return `may list at most ${params.limit} (it lists ${Array.isArray(value) ? value.length : 0})`
    case 'minimum':
      return `must be at least ${params.limit}`
    case 'maximum':
      return `must be at most ${params.limit}`
    case 'format':
      if (params.format === 'uri') return 'must be an absolute URL, like https://www.example.com/page'
      return undefined
    case 'pattern':
      if (String(params.pattern).startsWith('^https?://'))
        return 'must be an absolute URL starting with https:// or http://, like https://www.example.com/page'
      return undefined
  }
  return undefined
}

function typeMessage(type: string, value: unknown): string {
  const was =
    value === null ? 'it is empty' : Array.isArray(value) ? 'it is a list' : `it is ${describe(typeof value, value)}`
  switch (type) {
    case 'string':
      return `must be text (${was}); put the value in quotes if YAML reads it as something else`
    case 'boolean':
      return `must be true or false (${was})`
    case 'array':
      return `must be a list, like [a, b] or one "- item" per line (${was})`
    case 'object':
      return `must be a group of fields indented below it (${was})`
    case 'integer':
      return `must be a whole number (${was})`
    case 'number':
      return `must be a number (${was})`
  }
  return `must be of type ${type} (${was})`
}

function describe(kind: string, value: unknown): string {
  if (kind === 'object') return 'a group of fields'
  if (kind === 'string') return `the text ${JSON.stringify(value)}`
  return `${kind === 'boolean' ? '' : 'the number '}${String(value)}`
}

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/

/**
 * Why `value`, written like a date or date-time, is not one: a day the month
 * does not have, a month or an hour out of range, a missing offset. Undefined
 * when it is not written like one (the schema's message says what is expected).
 *
 * @example dateProblem('2026-11-31') // '2026-11-31 is not a date: November has 30 days'
 */
export function dateProblem(value: unknown, needsTime = false): string | undefined {
  if (typeof value !== 'string') return undefined
  const m = DATE_SHAPE.exec(value)
  if (!m) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (month < 1 || month > 12) return `${value} is not a date: there is no month ${m[2]} (months go from 01 to 12)`
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate()
  if (day < 1 || day > days) {
    const which = month === 2 ? `February ${year}` : MONTHS[month - 1]
    return `${value} is not a date: ${which} has ${days} days`
  }
  if (m[4] === undefined) return needsTime ? `${value} has no time: write it like ${value}T09:00:00+01:00` : undefined
  if (Number(m[4]) > 23) return `${value} is not a time: hours go from 00 to 23`
  if (Number(m[5]) > 59 || Number(m[6] ?? 0) > 60) return `${value} is not a time: minutes and seconds go from 00 to 59`
  if (m[6] === undefined) return `${value} has no seconds: write it like ${value}:00${m[7] ?? 'Z'}`
  if (m[7] === undefined) return `${value} has no time zone offset: add Z for UTC or the offset, like ${value}+01:00`
  if (/ /.test(value)) return `${value} needs a T between the date and the time, like ${value.replace(' ', 'T')}`
  if (/[+-]\d{4}$/.test(m[7]))
    return `${value} needs a colon in its offset, like ${value.slice(0, -2)}:${value.slice(-2)}`
  return undefined
}
