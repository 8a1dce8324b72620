/**
 * The list query rules of the API (limit, page, tag), shared by the build (which
 * pre-renders page 1 of every limit) and the gateway (which answers the rest).
 */
import { TAG_PATTERN } from './patterns.ts'

export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 100
export const MAX_PAGE = 100_000
const TAG_RE = new RegExp(TAG_PATTERN)

export interface ListQuery {
  limit: number
  page: number
  tag: string | undefined
}

export interface ParameterError {
  parameter: string
  message: string
}

export type ParsedListQuery = { ok: true; query: ListQuery } | { ok: false; errors: ParameterError[] }

const INTEGER = /^[1-9][0-9]{0,9}$/

function parseInteger(params: URLSearchParams, name: string, fallback: number, max: number, errors: ParameterError[]): number {
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
  const tags = params.getAll('tag')
  let tag: string | undefined
  if (tags.length > 1) errors.push({ parameter: 'tag', message: 'must be given once' })
  else if (tags.length === 1) {
    tag = tags[0]!
    if (tag.length > 50 || !TAG_RE.test(tag)) {
      errors.push({ parameter: 'tag', message: 'must be a tag: lowercase letters, digits and single hyphens, at most 50 characters' })
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, query: { limit, page, tag } }
}

/** Canonical href of a list request: limit always, page when not 1, tag when set. */
export function listHref(collection: string, query: ListQuery): string {
  let href = `/api/${collection}?limit=${query.limit}`
  if (query.page !== 1) href += `&page=${query.page}`
  if (query.tag !== undefined) href += `&tag=${encodeURIComponent(query.tag)}`
  return href
}

/** True when this query is answered by a pre-rendered file (page 1, no filter). */
export function isPrerendered(query: ListQuery): boolean {
  return query.page === 1 && query.tag === undefined
}
