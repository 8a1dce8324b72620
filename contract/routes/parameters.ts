/**
 * The parameters several routes take, each written once under
 * components/parameters of the document. The gateway's parsers
 * (contract/query.ts, search.ts, changes.ts) enforce exactly these bounds;
 * the contract fuzzing (test/contract/openapi/fuzz.test.ts) holds the two
 * together.
 */
import { DEFAULT_CHANGES_LIMIT, MAX_CHANGES_LIMIT, MAX_CURSOR_LENGTH } from '../changes.ts'
import { COLLECTION_NAMES } from '../collections.ts'
import { MAX_DATE_TIME_LENGTH, MAX_SLUG_LENGTH, MAX_TAG_LENGTH, SLUG_PATTERN } from '../patterns.ts'
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PAGE, QUERY_TAG_PATTERN } from '../query.ts'
import { MAX_QUERY_LENGTH, QUERY_PATTERN } from '../search.ts'
import type { Parameter } from './route.ts'
import { int32, MAX_HEADER_LENGTH, text } from './schema.ts'

export const LIMIT: Parameter = {
  component: 'limit',
  name: 'limit',
  in: 'query',
  required: false,
  description: `Items per page, an integer from 1 to ${MAX_LIMIT}. Given once; anything else is a 400.`,
  schema: int32(1, MAX_LIMIT, { default: DEFAULT_LIMIT }),
}

export const PAGE: Parameter = {
  component: 'page',
  name: 'page',
  in: 'query',
  required: false,
  description: `Page number, 1-based, up to ${MAX_PAGE}. A page past the end is an empty list, not an error.`,
  schema: int32(1, MAX_PAGE, { default: 1 }),
}

export const TAG: Parameter = {
  component: 'tag',
  name: 'tag',
  in: 'query',
  required: false,
  description: `Only items with this tag: letters, digits and single hyphens, at most ${MAX_TAG_LENGTH} characters (else a 400), matched without regard to case (tags are published lowercase; \`DBT\` finds \`dbt\`).`,
  schema: text(MAX_TAG_LENGTH, { pattern: QUERY_TAG_PATTERN }),
}

export const UPDATED_SINCE: Parameter = {
  component: 'updatedSince',
  name: 'updated_since',
  in: 'query',
  required: false,
  description:
    'Only items whose `updated_at` is after this instant: an RFC 3339 date-time with offset, e.g. `2026-03-01T00:00:00Z` (send a `+` of an offset as `%2B`), or a date, e.g. `2026-03-01`, meaning its midnight UTC (as `published_at` reads a date). Anything else is a 400.',
  schema: { type: 'string', maxLength: MAX_DATE_TIME_LENGTH, anyOf: [{ format: 'date' }, { format: 'date-time' }] },
}

export const SLUG: Parameter = {
  component: 'slug',
  name: 'slug',
  in: 'path',
  required: true,
  description: 'The item slug, as in the list.',
  schema: text(MAX_SLUG_LENGTH, { pattern: SLUG_PATTERN }),
}

/** The collection of a per-collection route: the document writes one path per collection instead. */
export const COLLECTION_PATH: Parameter = {
  name: 'collection',
  in: 'path',
  required: true,
  schema: { enum: [...COLLECTION_NAMES] },
}

export const IF_NONE_MATCH: Parameter = {
  component: 'ifNoneMatch',
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An ETag from an earlier answer; a match gives 304 Not Modified without a body.',
  schema: text(MAX_HEADER_LENGTH),
}

export const QUERY: Parameter = {
  component: 'q',
  name: 'q',
  in: 'query',
  required: true,
  description: `The words or phrase to look for: 1 to ${MAX_QUERY_LENGTH} characters, not all of them spaces (they are trimmed). Missing, blank or longer is a 400.`,
  schema: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH, pattern: QUERY_PATTERN },
}

export const COLLECTION_FILTER: Parameter = {
  component: 'collection',
  name: 'collection',
  in: 'query',
  required: false,
  description: 'Only search this collection.',
  schema: { enum: [...COLLECTION_NAMES] },
}

export const SINCE: Parameter = {
  component: 'since',
  name: 'since',
  in: 'query',
  required: false,
  description:
    'A cursor from an earlier answer (`meta.next_cursor`): only what changed after it. Opaque; a malformed one is a 400.',
  schema: text(MAX_CURSOR_LENGTH, { pattern: '^[A-Za-z0-9_-]+$' }),
}

export const CHANGES_LIMIT: Parameter = {
  component: 'changesLimit',
  name: 'limit',
  in: 'query',
  required: false,
  description: `Changes per answer, an integer from 1 to ${MAX_CHANGES_LIMIT}; \`meta.has_more\` says whether to ask again with \`next_cursor\`.`,
  schema: int32(1, MAX_CHANGES_LIMIT, { default: DEFAULT_CHANGES_LIMIT }),
}
