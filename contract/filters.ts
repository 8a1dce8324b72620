/**
 * The filters a list and a search share — `tag` (any of several),
 * `updated_since`, `published_after`, `published_before`, `author`,
 * `when=upcoming|past` and `exclude` — parsed from a query string, each bad
 * value an error naming the parameter and what it takes. Evaluated by
 * list-query.ts; declared for the document in routes/parameters.ts.
 */
import { MAX_SLUG_LENGTH, MAX_TAG_LENGTH, SLUG_PATTERN } from './patterns.ts'
import { personSlug } from './people.ts'
import { parseDateTime, single, type ParameterError } from './query-values.ts'

/** At most this many tags in one `tag=`. */
export const MAX_QUERY_TAGS = 20
/** The longest `author=`: a person's name is at most 120 characters (contract/schemas/common.ts). */
export const MAX_AUTHOR_LENGTH = 120
/**
 * A tag as a query may give it: authors write tags lowercase, and a query
 * matches them without regard to case (`tag=DBT` is `tag=dbt`).
 */
export const QUERY_TAG_PATTERN = '^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$'
/** `author=` names someone: not only spaces. */
export const AUTHOR_PATTERN = '\\S'
export const WHEN_VALUES = ['upcoming', 'past'] as const
export type When = (typeof WHEN_VALUES)[number]

const QUERY_TAG_RE = new RegExp(QUERY_TAG_PATTERN)
const SLUG_RE = new RegExp(SLUG_PATTERN)
const DATE = /^\d{4}-\d{2}-\d{2}$/

export interface RecordFilter {
  /** Only items with any of these tags (lowercase, each once). */
  tag?: readonly string[] | undefined
  /** Only items updated after this instant: canonical RFC 3339 in UTC (`2026-03-01T00:00:00Z`). */
  updatedSince?: string
  /** Only items published after this: a date (after that day, UTC) or a canonical UTC date-time. */
  publishedAfter?: string
  /** Only items published before this: a date (before that day, UTC) or a canonical UTC date-time. */
  publishedBefore?: string
  /** Only items with this person among their authors or speakers: a person slug (people.ts). */
  author?: string
  /** Only items that start after the request's clock (`upcoming`) or at or before it (`past`). */
  when?: When
  /** Leave out the item with this slug. */
  exclude?: string
}

/** Why a filter does not apply where it was given (undefined: it does). */
export interface FilterScope {
  author?: string
  when?: string
}

/** The filters of `params`, each bad one an entry of `errors`; unknown parameters are ignored. */
export function parseFilters(params: URLSearchParams, errors: ParameterError[], scope: FilterScope = {}): RecordFilter {
  const filter: RecordFilter = {}
  const tag = parseTags(params, errors)
  if (tag !== undefined) filter.tag = tag
  const updatedSince = instant(params, 'updated_since', errors, 'midnight')
  if (updatedSince !== undefined) filter.updatedSince = updatedSince
  const publishedAfter = instant(params, 'published_after', errors, 'day')
  if (publishedAfter !== undefined) filter.publishedAfter = publishedAfter
  const publishedBefore = instant(params, 'published_before', errors, 'day')
  if (publishedBefore !== undefined) filter.publishedBefore = publishedBefore
  const author = single(params, 'author', errors)
  if (author !== undefined) {
    if (scope.author) errors.push({ parameter: 'author', message: scope.author })
    else if (author.length > MAX_AUTHOR_LENGTH || !author.trim())
      errors.push({
        parameter: 'author',
        message: `must name a person, by slug (jose-nunez) or by name (José Núñez), 1 to ${MAX_AUTHOR_LENGTH} characters`,
      })
    else filter.author = personSlug(author)
  }
  const when = single(params, 'when', errors)
  if (when !== undefined) {
    if (scope.when) errors.push({ parameter: 'when', message: scope.when })
    else if (!(WHEN_VALUES as readonly string[]).includes(when))
      errors.push({ parameter: 'when', message: `must be upcoming or past, got ${quote(when)}` })
    else filter.when = when as When
  }
  const exclude = single(params, 'exclude', errors)
  if (exclude !== undefined) {
    if (exclude.length > MAX_SLUG_LENGTH || !SLUG_RE.test(exclude))
      errors.push({
        parameter: 'exclude',
        message: `must be the slug of an item: lowercase letters, digits and single hyphens, at most ${MAX_SLUG_LENGTH} characters`,
      })
    else filter.exclude = exclude
  }
  return filter
}

/**
 * `tag`: once, one tag or several separated by commas (an item with any of
 * them matches), in any case; lowercased, as tags are written, each once.
 */
export function parseTags(params: URLSearchParams, errors: ParameterError[]): readonly string[] | undefined {
  const raw = single(params, 'tag', errors)
  if (raw === undefined) return undefined
  const given = raw.split(',')
  if (given.length > MAX_QUERY_TAGS || given.some((t) => t.length > MAX_TAG_LENGTH || !QUERY_TAG_RE.test(t))) {
    errors.push({
      parameter: 'tag',
      message: `must be 1 to ${MAX_QUERY_TAGS} tags separated by commas (an item with any of them matches), each letters, digits and single hyphens, at most ${MAX_TAG_LENGTH} characters, got ${quote(raw)}`,
    })
    return undefined
  }
  return [...new Set(given.map((t) => t.toLowerCase()))]
}

/**
 * An instant parameter: an RFC 3339 date-time (canonical UTC), or a date.
 * A date is kept as the date where it stands for a whole day (`day`:
 * published_after/before), or read as its midnight UTC (`midnight`:
 * updated_since, so `2026-03-01` is after 2026-03-01T00:00:00Z).
 */
function instant(
  params: URLSearchParams,
  name: string,
  errors: ParameterError[],
  dates: 'day' | 'midnight',
): string | undefined {
  const raw = single(params, name, errors)
  if (raw === undefined) return undefined
  const midnight = DATE.test(raw) ? parseDateTime(`${raw}T00:00:00Z`) : undefined
  const value = midnight === undefined ? parseDateTime(raw) : dates === 'day' ? raw : midnight
  if (value) return value
  const example =
    dates === 'day'
      ? 'a date like 2026-03-31 (a whole day, UTC) or an RFC 3339 date-time with offset like 2026-03-31T12:00:00Z'
      : 'a date like 2026-03-01 or an RFC 3339 date-time with offset like 2026-03-01T00:00:00Z'
  errors.push({ parameter: name, message: `must be ${example}, got ${quote(raw)}${plusHint(raw)}` })
  return undefined
}

/** A `+` sent unencoded in a query string arrives as a space: say so when that is what went wrong. */
function plusHint(value: string): string {
  return value.includes(' ') && parseDateTime(value.replaceAll(' ', '+')) !== undefined
    ? `: a + in a query string must be sent as %2B (it arrived as a space), like ${value.replaceAll(' ', '%2B')}`
    : ''
}

const quote = (value: string) => JSON.stringify(value.slice(0, 40))

/** The filter as query parameters, in a fixed order, for canonical links (`&tag=a,b&author=…`). */
export function filterHref(filter: RecordFilter): string {
  let href = ''
  if (filter.tag !== undefined) href += `&tag=${filter.tag.map(encodeURIComponent).join(',')}`
  if (filter.updatedSince !== undefined) href += `&updated_since=${encodeURIComponent(filter.updatedSince)}`
  if (filter.publishedAfter !== undefined) href += `&published_after=${encodeURIComponent(filter.publishedAfter)}`
  if (filter.publishedBefore !== undefined) href += `&published_before=${encodeURIComponent(filter.publishedBefore)}`
  if (filter.author !== undefined) href += `&author=${filter.author}`
  if (filter.when !== undefined) href += `&when=${filter.when}`
  if (filter.exclude !== undefined) href += `&exclude=${filter.exclude}`
  return href
}

/** Whether the filter leaves any item out. */
export function isFiltered(filter: RecordFilter): boolean {
  return (
    filter.tag !== undefined ||
    filter.updatedSince !== undefined ||
    filter.publishedAfter !== undefined ||
    filter.publishedBefore !== undefined ||
    filter.author !== undefined ||
    filter.when !== undefined ||
    filter.exclude !== undefined
  )
}
