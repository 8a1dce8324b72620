/**
 * The parameters of the lists, each declared once (route.ts, QueryParameter):
 * its name, schema (type, bounds, values, pattern, default, examples),
 * description and what reading it keeps and says. The gateway reads requests
 * with them (query-reader.ts), the document writes them (shared ones once,
 * under components/parameters) and the MCP tools take them as arguments
 * (gateway/mcp/arguments.ts). A collection's own (its path, `sort`,
 * `fields`, the filters it refuses): collection-parameters.ts; search's and
 * the change feed's: search-changes-parameters.ts.
 */
import { parseDateTime } from '../query-values.ts'
import { MAX_DATE_TIME_LENGTH, MAX_SLUG_LENGTH, MAX_TAG_LENGTH, SLUG_PATTERN } from '../patterns.ts'
import { personSlug } from '../people.ts'
import { LOCALE_QUERY_PATTERN, MAX_LOCALE_LENGTH } from '../locales.ts'
import { quote } from './query-messages.ts'
import type { Failure, Parameter, QueryParameter } from './route.ts'
import { arrayOf, instant, int32, MAX_HEADER_LENGTH, text, type SchemaObject } from './schema.ts'

export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 100
export const MAX_PAGE = 100_000
/** At most this many tags in one `tag=`. */
const MAX_QUERY_TAGS = 20
/** The longest `author=`: a person's name is at most 120 characters (contract/model/common-fields.ts). */
const MAX_AUTHOR_LENGTH = 120
/** A tag as a query may give it: authors write tags lowercase, and a query matches them without regard to case. */
const QUERY_TAG_PATTERN = '^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$'
export const WHEN_VALUES = ['upcoming', 'past'] as const
/** `2026-03-31`. */
const DATE_LENGTH = 10
const DATE = /^\d{4}-\d{2}-\d{2}$/

export const LIMIT: QueryParameter = {
  component: 'limit',
  name: 'limit',
  in: 'query',
  required: false,
  description: `Items per page, an integer from 1 to ${MAX_LIMIT}.`,
  http: 'Given once; anything else is a 400.',
  schema: int32(1, MAX_LIMIT, { default: DEFAULT_LIMIT }),
}

export const PAGE: QueryParameter = {
  component: 'page',
  name: 'page',
  in: 'query',
  required: false,
  description: `Page number, 1-based, up to ${MAX_PAGE}. A page past the end is an empty list, not an error.`,
  schema: int32(1, MAX_PAGE, { default: 1 }),
}

export const TAG: QueryParameter = {
  component: 'tag',
  name: 'tag',
  in: 'query',
  required: false,
  commaSeparated: true,
  description: `Only items with any of these tags: one, or up to ${MAX_QUERY_TAGS} separated by commas (\`tag=fintech,banking\`). Letters, digits and single hyphens, at most ${MAX_TAG_LENGTH} characters each, matched without regard to case (tags are published lowercase; \`DBT\` finds \`dbt\`).`,
  http: 'Anything else is a 400.',
  schema: arrayOf(text(MAX_TAG_LENGTH, { pattern: QUERY_TAG_PATTERN }), MAX_QUERY_TAGS, {
    minItems: 1,
    examples: [['fintech', 'banking']],
  }),
  // Lowercase, as tags are written, each once.
  readItems: (tags) => [...new Set(tags.map((t) => t.toLowerCase()))],
  invalid: ({ raw }) =>
    `must be 1 to ${MAX_QUERY_TAGS} tags separated by commas (an item with any of them matches), each letters, digits and single hyphens, at most ${MAX_TAG_LENGTH} characters, got ${quote(raw)}`,
}

/** A date (a whole day, UTC) or an RFC 3339 date-time. */
const dayOrInstant = (): SchemaObject => ({
  type: 'string',
  maxLength: MAX_DATE_TIME_LENGTH,
  anyOf: [text(DATE_LENGTH, { format: 'date' }), instant()],
})

/** A `+` sent unencoded in a query string arrives as a space: say so when that is what went wrong. */
function plusHint(value: string): string {
  return value.includes(' ') && parseDateTime(value.replaceAll(' ', '+')) !== undefined
    ? `: a + in a query string must be sent as %2B (it arrived as a space), like ${value.replaceAll(' ', '%2B')}`
    : ''
}

/**
 * What an instant parameter keeps: a date-time as canonical UTC; a date as
 * the date where it stands for a whole day (`day`: published_after/before),
 * or as its midnight UTC (`midnight`: updated_since).
 */
function instantOf(dates: 'day' | 'midnight', example: string) {
  return {
    read: (value: string) =>
      DATE.test(value) ? (dates === 'day' ? value : parseDateTime(`${value}T00:00:00Z`)) : parseDateTime(value),
    invalid: ({ raw }: Failure) => `must be ${example}, got ${quote(raw)}${plusHint(raw)}`,
  }
}

const DAY_EXAMPLE =
  'a date like 2026-03-31 (a whole day, UTC) or an RFC 3339 date-time with offset like 2026-03-31T12:00:00Z'

export const UPDATED_SINCE: QueryParameter = {
  component: 'updatedSince',
  name: 'updated_since',
  in: 'query',
  required: false,
  key: 'updatedSince',
  description:
    'Only items whose `updated_at` is after this instant: an RFC 3339 date-time with offset, e.g. `2026-03-01T00:00:00Z`, or a date, e.g. `2026-03-01`, meaning its midnight UTC (as `published_at` reads a date).',
  http: 'Send the `+` of an offset as `%2B`; anything else is a 400.',
  schema: { type: 'string', maxLength: MAX_DATE_TIME_LENGTH, anyOf: [{ format: 'date' }, { format: 'date-time' }] },
  ...instantOf('midnight', 'a date like 2026-03-01 or an RFC 3339 date-time with offset like 2026-03-01T00:00:00Z'),
}

export const PUBLISHED_AFTER: QueryParameter = {
  component: 'publishedAfter',
  name: 'published_after',
  in: 'query',
  required: false,
  key: 'publishedAfter',
  description:
    'Only items published after this: a date (after that whole day, UTC: `2026-03-31` keeps 1 April on) or an RFC 3339 date-time with offset (after that instant).',
  http: 'Anything else is a 400.',
  schema: dayOrInstant(),
  ...instantOf('day', DAY_EXAMPLE),
}

export const PUBLISHED_BEFORE: QueryParameter = {
  component: 'publishedBefore',
  name: 'published_before',
  in: 'query',
  required: false,
  key: 'publishedBefore',
  description:
    'Only items published before this: a date (before that day begins, UTC) or an RFC 3339 date-time with offset. With `published_after`, a range: `published_after=2025-12-31&published_before=2026-04-01` is the first quarter of 2026.',
  schema: dayOrInstant(),
  ...instantOf('day', DAY_EXAMPLE),
}

export const AUTHOR: QueryParameter = {
  component: 'author',
  name: 'author',
  in: 'query',
  required: false,
  description:
    "Only items with this person among their authors (blog posts) or speakers (webinars, events): the person's `slug` (`jose-nunez`), or their name written any way that makes the same slug (`José Núñez`, `jose nunez`).",
  // Someone: not only spaces.
  schema: text(MAX_AUTHOR_LENGTH, { minLength: 1, pattern: '\\S', examples: ['jose-nunez', 'José Núñez'] }),
  read: personSlug,
  invalid: () =>
    `must name a person, by slug (jose-nunez) or by name (José Núñez), 1 to ${MAX_AUTHOR_LENGTH} characters`,
}

export const WHEN: QueryParameter = {
  component: 'when',
  name: 'when',
  in: 'query',
  required: false,
  description:
    'By `starts_at`, at the time of the request: `upcoming` (not started yet) or `past` (started). Combine with `sort=starts_at` for the soonest first.',
  http: 'Such an answer is cached no longer than until the next start, so it is never stale about what has begun.',
  schema: { type: 'string', enum: [...WHEN_VALUES] },
  invalid: ({ raw }) => `must be upcoming or past, got ${quote(raw)}`,
}

export const EXCLUDE: QueryParameter = {
  component: 'exclude',
  name: 'exclude',
  in: 'query',
  required: false,
  description: 'Leave out the item with this slug (the one a "more like this" list sits under).',
  schema: text(MAX_SLUG_LENGTH, { pattern: SLUG_PATTERN }),
  invalid: () =>
    `must be the slug of an item: lowercase letters, digits and single hyphens, at most ${MAX_SLUG_LENGTH} characters`,
}

/** The filters a list and a search share, in the order they are read (and a 400 names them). */
export const LIST_FILTERS: readonly QueryParameter[] = [
  TAG,
  UPDATED_SINCE,
  PUBLISHED_AFTER,
  PUBLISHED_BEFORE,
  AUTHOR,
  WHEN,
  EXCLUDE,
]

export const LOCALE: QueryParameter = {
  component: 'locale',
  name: 'locale',
  in: 'query',
  required: false,
  description:
    "The locale to read, one of the site's locales (a BCP 47 tag as site.yaml lists them, matched without regard to case). Lists of a locale hold its translations (and, where the site lets it fall back, the default locale's items it has no translation of); an item is found by its slug in any locale and answered in this one. A single-language site ignores a well-formed one.",
  http: 'A locale the site does not have is a 400. Without it, Accept-Language chooses, and the answer says `Vary: Accept-Language`.',
  schema: text(MAX_LOCALE_LENGTH, { pattern: LOCALE_QUERY_PATTERN }),
  readElsewhere: "contract/locales.ts: one of the site's locales, else the one Accept-Language negotiates",
}

export const IF_NONE_MATCH: Parameter = {
  component: 'ifNoneMatch',
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An ETag from an earlier answer; a match gives 304 Not Modified without a body.',
  schema: text(MAX_HEADER_LENGTH),
}

export const ACCEPT_LANGUAGE: Parameter = {
  component: 'acceptLanguage',
  name: 'Accept-Language',
  in: 'header',
  required: false,
  description:
    "Where no `locale` is given: the reader's languages by preference (RFC 9110); the best of the site's locales answers, the default when none fits. Content-Language names the locale of the answer.",
  schema: text(MAX_HEADER_LENGTH),
}
