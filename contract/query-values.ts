/**
 * Reading one value of a query parameter: once, an integer in range, an
 * RFC 3339 instant. What every query parser of the API (lists, filters,
 * search, the change feed) is built from.
 */

/** One invalid parameter: its name, and what it takes. */
export interface ParameterError {
  parameter: string
  message: string
}

const INTEGER = /^[1-9][0-9]{0,9}$/
/** RFC 3339 `date-time`: a full date and time with an offset; fractions of a second allowed. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/

/**
 * An RFC 3339 date-time as a canonical UTC string (`…Z`, milliseconds only
 * when not zero), or undefined when it is not one. Every field is range
 * checked: `Date.parse` alone would take 2026-02-30 for 2 March.
 */
export function parseDateTime(value: string): string | undefined {
  const m = DATE_TIME.exec(value)
  if (!m) return undefined
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 60)
    return undefined
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return undefined
  const time = Date.parse(value.toUpperCase().replace(':60', ':59'))
  return Number.isFinite(time) ? new Date(time).toISOString().replace('.000Z', 'Z') : undefined
}

/** One value of a parameter, or an error when it is repeated. */
export function single(params: URLSearchParams, name: string, errors: ParameterError[]): string | undefined {
  const values = params.getAll(name)
  if (values.length > 1) errors.push({ parameter: name, message: 'must be given once' })
  return values.length === 1 ? values[0] : undefined
}

export function parseInteger(
  params: URLSearchParams,
  name: string,
  fallback: number,
  max: number,
  errors: ParameterError[],
): number {
  const values = params.getAll(name)
  if (values.length === 0) return fallback
  const range = `an integer from 1 to ${max}`
  if (values.length > 1) {
    errors.push({ parameter: name, message: `must be given once, as ${range}` })
    return fallback
  }
  const raw = values[0]!
  const value = INTEGER.test(raw) ? Number(raw) : Number.NaN
  if (!(value >= 1 && value <= max)) {
    errors.push({ parameter: name, message: `must be ${range}, got ${JSON.stringify(raw.slice(0, 40))}` })
    return fallback
  }
  return value
}

/**
 * A comma-separated list parameter (OpenAPI `style: form, explode: false`),
 * once: its values, or undefined when absent. An empty value, or an empty
 * item (`a,,b`), is one of the values, for the caller to refuse.
 */
export function commaList(params: URLSearchParams, name: string, errors: ParameterError[]): string[] | undefined {
  const raw = single(params, name, errors)
  return raw === undefined ? undefined : raw.split(',')
}
