/**
 * The parameters of search and the change feed, each declared once as those
 * of the lists are (parameters.ts): the search's words and collection, the
 * feed's cursor, page size and locale (search's `collection`, of the
 * content model: collection-parameters.ts). Search also takes the lists' filters,
 * `limit` and `page`.
 */
import { LOCALE_QUERY_PATTERN, MAX_LOCALE_LENGTH } from '../locales.ts'
import { MAX_QUERY_LENGTH, QUERY_PATTERN } from '../search.ts'
import type { QueryParameter } from './route.ts'
import { int32, text } from './schema.ts'

export const DEFAULT_CHANGES_LIMIT = 1000
export const MAX_CHANGES_LIMIT = 1000
/** A cursor's text: base64url, after a locale's tag and `_` in a locale's feed (contract/changes.ts). */
export const MAX_CURSOR_LENGTH = 64
export const CURSOR_PATTERN = '^[A-Za-z0-9_-]+$'

export const QUERY: QueryParameter = {
  component: 'q',
  name: 'q',
  in: 'query',
  required: true,
  key: 'query',
  description: `The words or phrase to look for: 1 to ${MAX_QUERY_LENGTH} characters, not all of them spaces (they are trimmed).`,
  http: 'Missing, blank or longer is a 400.',
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: MAX_QUERY_LENGTH,
    pattern: QUERY_PATTERN,
    examples: ['ledger reconciliation'],
  },
  read: (words) => words.trim(),
  invalid: ({ keyword, raw }) =>
    keyword === 'required'
      ? 'is required: the words to look for, e.g. ?q=data+contracts'
      : keyword === 'maxLength'
        ? `must be at most ${MAX_QUERY_LENGTH} characters, got ${raw.length}`
        : 'must not be empty',
}

export const SINCE: QueryParameter = {
  component: 'since',
  name: 'since',
  in: 'query',
  required: false,
  description:
    'A cursor from an earlier answer (`meta.next_cursor`): only what changed after it. Opaque; a malformed one is a 400.',
  schema: text(MAX_CURSOR_LENGTH, { pattern: CURSOR_PATTERN }),
  readElsewhere: 'contract/changes.ts: a cursor this API made, of the feed asked for',
}

export const CHANGES_LIMIT: QueryParameter = {
  component: 'changesLimit',
  name: 'limit',
  in: 'query',
  required: false,
  description: `Changes per answer, an integer from 1 to ${MAX_CHANGES_LIMIT}; \`meta.has_more\` says whether to ask again with \`next_cursor\`.`,
  schema: int32(1, MAX_CHANGES_LIMIT, { default: DEFAULT_CHANGES_LIMIT }),
}

/** The change feed's locale: given or not, never negotiated (a client's cursor reads one feed). */
export const CHANGES_LOCALE: QueryParameter = {
  component: 'changesLocale',
  name: 'locale',
  in: 'query',
  required: false,
  description:
    "A multilingual site's feed of another locale than the default, one of the site's locales (a BCP 47 tag as site.yaml lists them, matched without regard to case; another is a 400): the records that locale shows, its translations and, where it falls back, the default locale's items it has no translation of. Each locale's feed has its own cursors, which name it; a cursor of another locale's feed is a 400. Accept-Language never chooses the feed (a sync client's feed must not switch under its cursor): without `locale`, the default locale's. A single-language site ignores a well-formed one.",
  schema: text(MAX_LOCALE_LENGTH, { pattern: LOCALE_QUERY_PATTERN }),
  readElsewhere: "contract/locales.ts: one of the site's locales, never negotiated",
}
