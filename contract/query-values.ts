/**
 * What reading a query parameter reports and reads: an error naming it, one
 * value given once, an RFC 3339 instant. The declared parameters are read by
 * routes/query-reader.ts; the locale and the change feed's cursor, which
 * depend on the site and the feed, by locales.ts and changes.ts.
 */

/** One invalid parameter: its name, and what it takes. */
export interface ParameterError {
  parameter: string
  message: string
}

/** RFC 3339 `date-time`: a full date and time with an offset; fractions of a second allowed. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/

let lastValue: string | undefined
let lastParsed: string | undefined

/**
 * An RFC 3339 date-time as a canonical UTC string (`…Z`, milliseconds only
 * when not zero), or undefined when it is not one. Every field is range
 * checked: `Date.parse` alone would take 2026-02-30 for 2 March.
 */
export function parseDateTime(value: string): string | undefined {
  // A query's instant is checked against its schema, then read: the second call is the first's answer.
  if (value === lastValue) return lastParsed
  lastParsed = parse(value)
  lastValue = value
  return lastParsed
}

function parse(value: string): string | undefined {
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
