/**
 * The list query rules of the API (limit, page, tag, updated_since), shared by the build (which
 * pre-renders page 1 of every limit) and the gateway (which answers the rest).
 */
import { TAG_PATTERN } from './patterns.ts'

export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 100
export const MAX_PAGE = 100_000
/**
 * A tag as a query may give it: authors write tags lowercase (TAG_PATTERN), and
 * a query matches them without regard to case (`tag=DBT` is `tag=dbt`), so a
 * reader who capitalises a tag gets the same items, never an empty list.
 */
export const QUERY_TAG_PATTERN = '^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$'
const TAG_RE = new RegExp(TAG_PATTERN)

export interface ListQuery {
  limit: number
  page: number
  tag: string | undefined
  /** Only items updated after this instant: canonical RFC 3339 in UTC (`2026-03-01T00:00:00Z`). */
  updatedSince?: string
  /** A multilingual site's locale other than the default (the links keep it); undefined for the default. */
  locale?: string
}

export interface ParameterError {
  parameter: string
  message: string
}

export type ParsedListQuery = { ok: true; query: ListQuery } | { ok: false; errors: ParameterError[] }

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

/** A date (its midnight UTC, as published_at reads one) or an RFC 3339 date-time, canonical; undefined when neither. */
export function parseInstant(value: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? parseDateTime(`${value}T00:00:00Z`) : parseDateTime(value)
}

/** A `+` sent unencoded in a query string arrives as a space: say so when that is what went wrong. */
function plusHint(value: string): string {
  return value.includes(' ') && parseDateTime(value.replaceAll(' ', '+')) !== undefined
    ? `: a + in a query string must be sent as %2B (it arrived as a space), like ${value.replaceAll(' ', '%2B')}`
    : ''
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

/** Validate a list query; unknown parameters are ignored. */
export function parseListQuery(params: URLSearchParams): ParsedListQuery {
  const errors: ParameterError[] = []
  const limit = parseInteger(params, 'limit', DEFAULT_LIMIT, MAX_LIMIT, errors)
  const page = parseInteger(params, 'page', 1, MAX_PAGE, errors)
  const tag = parseTag(params, errors)
  const since = single(params, 'updated_since', errors)
  const updatedSince = since === undefined ? undefined : parseInstant(since)
  if (since !== undefined && updatedSince === undefined) {
    errors.push({
      parameter: 'updated_since',
      message: `must be a date like 2026-03-01 or an RFC 3339 date-time with offset like 2026-03-01T00:00:00Z, got ${JSON.stringify(since.slice(0, 40))}${plusHint(since)}`,
    })
  }
  if (errors.length) return { ok: false, errors }
  return { ok: true, query: updatedSince === undefined ? { limit, page, tag } : { limit, page, tag, updatedSince } }
}

/** The `tag` parameter: once, in tag syntax, in any case; lowercased, as tags are written. */
export function parseTag(params: URLSearchParams, errors: ParameterError[]): string | undefined {
  const tag = single(params, 'tag', errors)?.toLowerCase()
  if (tag !== undefined && (tag.length > 50 || !TAG_RE.test(tag))) {
    errors.push({
      parameter: 'tag',
      message:
        'must be a tag: letters, digits and single hyphens, at most 50 characters (matched without regard to case)',
    })
  }
  return tag
}

/** Canonical href of a list request: limit always, page when not 1, tag and updated_since when set. */
export function listHref(collection: string, query: ListQuery): string {
  let href = `/api/${collection}?limit=${query.limit}`
  if (query.page !== 1) href += `&page=${query.page}`
  if (query.tag !== undefined) href += `&tag=${encodeURIComponent(query.tag)}`
  if (query.updatedSince !== undefined) href += `&updated_since=${encodeURIComponent(query.updatedSince)}`
  if (query.locale !== undefined) href += `&locale=${query.locale}`
  return href
}

/** True when this query is answered by a pre-rendered file (page 1, no filter). */
export function isPrerendered(query: ListQuery): boolean {
  return query.page === 1 && query.tag === undefined && query.updatedSince === undefined
}
