/**
 * The parameters several routes take, each written once under
 * components/parameters of the document, and those of each collection's
 * own (`sort`, `fields`). The gateway's parsers
 * (contract/query.ts, search.ts, changes.ts) enforce exactly these bounds;
 * the contract fuzzing (test/contract/openapi/fuzz.test.ts) holds the two
 * together.
 */
import { DEFAULT_CHANGES_LIMIT, MAX_CHANGES_LIMIT, MAX_CURSOR_LENGTH } from '../changes.ts'
import type { CollectionModel, ContentModel } from '../model/model.ts'
import { AUTHOR_PATTERN, MAX_AUTHOR_LENGTH, MAX_QUERY_TAGS, QUERY_TAG_PATTERN, WHEN_VALUES } from '../filters.ts'
import { MAX_DATE_TIME_LENGTH, MAX_SLUG_LENGTH, MAX_TAG_LENGTH, SLUG_PATTERN } from '../patterns.ts'
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PAGE } from '../query.ts'
import { selectableFields } from '../records.ts'
import { MAX_QUERY_LENGTH, QUERY_PATTERN } from '../search.ts'
import { LOCALE_QUERY_PATTERN, MAX_LOCALE_LENGTH } from '../locales.ts'
import type { Parameter } from './route.ts'
import { arrayOf, instant, int32, MAX_HEADER_LENGTH, text, type SchemaObject } from './schema.ts'

/** `2026-03-31`. */
const DATE_LENGTH = 10

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
  commaSeparated: true,
  description: `Only items with any of these tags: one, or up to ${MAX_QUERY_TAGS} separated by commas (\`tag=fintech,banking\`). Letters, digits and single hyphens, at most ${MAX_TAG_LENGTH} characters each, matched without regard to case (tags are published lowercase; \`DBT\` finds \`dbt\`); anything else is a 400.`,
  schema: arrayOf(text(MAX_TAG_LENGTH, { pattern: QUERY_TAG_PATTERN }), MAX_QUERY_TAGS, { minItems: 1 }),
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

/** A date (a whole day, UTC) or an RFC 3339 date-time. */
const dayOrInstant = (): SchemaObject => ({
  type: 'string',
  maxLength: MAX_DATE_TIME_LENGTH,
  anyOf: [text(DATE_LENGTH, { format: 'date' }), instant()],
})

export const PUBLISHED_AFTER: Parameter = {
  component: 'publishedAfter',
  name: 'published_after',
  in: 'query',
  required: false,
  description:
    'Only items published after this: a date (after that whole day, UTC: `2026-03-31` keeps 1 April on) or an RFC 3339 date-time with offset (after that instant). Anything else is a 400.',
  schema: dayOrInstant(),
}

export const PUBLISHED_BEFORE: Parameter = {
  component: 'publishedBefore',
  name: 'published_before',
  in: 'query',
  required: false,
  description:
    'Only items published before this: a date (before that day begins, UTC) or an RFC 3339 date-time with offset. With `published_after`, a range: `published_after=2025-12-31&published_before=2026-04-01` is the first quarter of 2026.',
  schema: dayOrInstant(),
}

/** `author`: the fields of `model` that list people name who it finds. */
export function authorOf(model: ContentModel): Parameter {
  const byFields = new Map<string, string[]>()
  for (const name of model.names) {
    const key = model.collections[name]!.people.join(', ')
    if (key) byFields.set(key, [...(byFields.get(key) ?? []), name.replaceAll('-', ' ')])
  }
  const among = [...byFields].map(([fields, names]) => `${fields} (${names.join(', ')})`).join(' or ')
  return {
    component: 'author',
    name: 'author',
    in: 'query',
    required: false,
    description: `Only items with this person among their ${among || 'people'}: the person's \`slug\` (\`jose-nunez\`), or their name written any way that makes the same slug (\`José Núñez\`, \`jose nunez\`).`,
    schema: text(MAX_AUTHOR_LENGTH, { minLength: 1, pattern: AUTHOR_PATTERN }),
  }
}

export const WHEN: Parameter = {
  component: 'when',
  name: 'when',
  in: 'query',
  required: false,
  description:
    'By `starts_at`, at the time of the request: `upcoming` (not started yet) or `past` (started). Combine with `sort=starts_at` for the soonest first. Such an answer is cached no longer than until the next start, so it is never stale about what has begun.',
  schema: { type: 'string', enum: [...WHEN_VALUES] },
}

export const EXCLUDE: Parameter = {
  component: 'exclude',
  name: 'exclude',
  in: 'query',
  required: false,
  description: 'Leave out the item with this slug (the one a "more like this" list sits under).',
  schema: text(MAX_SLUG_LENGTH, { pattern: SLUG_PATTERN }),
}

/** `sort` of a collection: its own keys. */
export function sortOf(collection: CollectionModel): Parameter {
  const keys = collection.sortKeys
  return {
    name: 'sort',
    in: 'query',
    required: false,
    commaSeparated: true,
    description: `The order: one or more of ${keys.map((k) => `\`${k}\``).join(', ')}, separated by commas, each once, ascending or with \`-\` before it descending (\`sort=-updated_at,title\`). Ties keep the default order (newest first by \`${collection.sortField}\`), which is also the order without \`sort\`.`,
    schema: arrayOf({ type: 'string', enum: keys.flatMap((k) => [k, `-${k}`]) }, keys.length, {
      minItems: 1,
      uniqueItems: true,
    }),
  }
}

/** `fields` of a collection's lists (`summary`) or items (`full`): its own fields, and a multilingual site's locale fields. */
export function fieldsOf(collection: CollectionModel, form: 'summary' | 'full'): Parameter {
  const fields = selectableFields(collection, form)
  return {
    name: 'fields',
    in: 'query',
    required: false,
    commaSeparated: true,
    description: `Only these fields of ${form === 'summary' ? 'each item' : 'the item'}, separated by commas (\`fields=title,slug,image\`); \`id\` and \`type\` always come. \`locale\` and \`translations\` are a multilingual site's (for hreflang links: \`fields=url,translations\`). An unknown name is a 400 that lists the fields.`,
    schema: arrayOf({ type: 'string', enum: [...fields] }, fields.length, { minItems: 1 }),
  }
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
export function collectionPath(model: ContentModel): Parameter {
  return { name: 'collection', in: 'path', required: true, schema: { enum: [...model.names] } }
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

export function collectionFilter(model: ContentModel): Parameter {
  return {
    component: 'collection',
    name: 'collection',
    in: 'query',
    required: false,
    description: 'Only search this collection.',
    schema: { enum: [...model.names] },
  }
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

export const LOCALE: Parameter = {
  component: 'locale',
  name: 'locale',
  in: 'query',
  required: false,
  description:
    "The locale to read, one of the site's locales (a BCP 47 tag as site.yaml lists them, matched without regard to case; another is a 400). Without it, Accept-Language chooses, and the answer says `Vary: Accept-Language`. Lists of a locale hold its translations (and, where the site lets it fall back, the default locale's items it has no translation of); an item is found by its slug in any locale and answered in this one. A single-language site ignores a well-formed one.",
  schema: text(MAX_LOCALE_LENGTH, { pattern: LOCALE_QUERY_PATTERN }),
}

/** The change feed's locale: given or not, never negotiated (a client's cursor reads one feed). */
export const CHANGES_LOCALE: Parameter = {
  component: 'changesLocale',
  name: 'locale',
  in: 'query',
  required: false,
  description:
    "A multilingual site's feed of another locale than the default, one of the site's locales (a BCP 47 tag as site.yaml lists them, matched without regard to case; another is a 400): the records that locale shows, its translations and, where it falls back, the default locale's items it has no translation of. Each locale's feed has its own cursors, which name it; a cursor of another locale's feed is a 400. Accept-Language never chooses the feed (a sync client's feed must not switch under its cursor): without `locale`, the default locale's. A single-language site ignores a well-formed one.",
  schema: text(MAX_LOCALE_LENGTH, { pattern: LOCALE_QUERY_PATTERN }),
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
