/**
 * Operations that take content further: search across collections, the
 * change feed, feeds (RSS, Atom, JSON Feed) and calendars (iCalendar).
 */
import type { SchemaObject } from 'ajv'
import {
  DEFAULT_CHANGES_LIMIT,
  MAX_CHANGES_LIMIT,
  MAX_CURSOR_LENGTH,
  MAX_WARNING_LENGTH,
} from '../../contract/changes.ts'
import { COLLECTION_NAMES, COLLECTIONS } from '../../contract/collections.ts'
import { FEED_ENTRIES, FEED_NAMES, FEED_TYPES } from '../../contract/documents.ts'
import {
  MAX_DATE_TIME_LENGTH,
  MAX_SLUG_LENGTH,
  MAX_TAG_LENGTH,
  SLUG_PATTERN,
  TAG_PATTERN,
} from '../../contract/patterns.ts'
import { BODY_LIMITS } from '../../contract/records.ts'
import { MAX_LIMIT, MAX_PAGE } from '../../contract/query.ts'
import { arrayOf, count, instant as dateTime, int32, text, uri, uriReference } from './bounded.ts'
import {
  CALENDAR_PREFIX,
  CHANGES_PATH,
  FEED_EXTENSIONS,
  FEEDS_PREFIX,
  SEARCH_PATH,
  type FeedFormat,
} from '../../contract/public-paths.ts'
import { MAX_MATCHED_TERMS, MAX_QUERY_LENGTH, MAX_SNIPPET_LENGTH } from '../../contract/search.ts'
import { CORS_HEADERS, headerRef, parameterRef, responseRef, schemaRef } from './components.ts'
import { contentHeaders, problems } from './paths-content.ts'
import { ANONYMOUS, publicReadSecurity } from './security.ts'

type Json = Record<string, unknown>

export const REACH_TAGS = [
  {
    name: 'Search and changes',
    description: 'Ranked search across collections, and the change feed for keeping a copy in sync.',
  },
  {
    name: 'Feeds and calendars',
    description: 'RSS 2.0, Atom 1.0 and JSON Feed 1.1 feeds; iCalendar files of events and webinars.',
  },
]

export const REACH_PARAMETERS: Record<string, Json> = {
  q: {
    name: 'q',
    in: 'query',
    required: true,
    description: `The words or phrase to look for, 1 to ${MAX_QUERY_LENGTH} characters (trimmed). Missing, empty or longer is a 400.`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH },
  },
  collection: {
    name: 'collection',
    in: 'query',
    required: false,
    description: 'Only search this collection.',
    schema: { enum: [...COLLECTION_NAMES] },
  },
  since: {
    name: 'since',
    in: 'query',
    required: false,
    description:
      'A cursor from an earlier answer (`meta.next_cursor`): only what changed after it. Opaque; a malformed one is a 400.',
    schema: text(MAX_CURSOR_LENGTH, { pattern: '^[A-Za-z0-9_-]+$' }),
  },
  changesLimit: {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Changes per answer, an integer from 1 to ${MAX_CHANGES_LIMIT}; \`meta.has_more\` says whether to ask again with \`next_cursor\`.`,
    schema: int32(1, MAX_CHANGES_LIMIT, { default: DEFAULT_CHANGES_LIMIT }),
  },
  updatedSince: {
    name: 'updated_since',
    in: 'query',
    required: false,
    description:
      'Only items whose `updated_at` is after this instant: an RFC 3339 date-time with offset, e.g. `2026-03-01T00:00:00Z` (send a `+` of an offset as `%2B`), or a date, e.g. `2026-03-01`, meaning its midnight UTC (as `published_at` reads a date). Anything else is a 400.',
    schema: { type: 'string', maxLength: MAX_DATE_TIME_LENGTH, anyOf: [{ format: 'date' }, { format: 'date-time' }] },
  },
}

const instant: SchemaObject = dateTime()
const links: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['self', 'next'],
  properties: { self: uriReference(), next: uriReference({ description: 'This feed after `next_cursor`.' }) },
}
const id = text(20, { pattern: '^[0-9a-f]{20}$' })
const slug = text(MAX_SLUG_LENGTH, { pattern: SLUG_PATTERN })
/** Every published item of every collection: what a search can match. */
const ALL_ITEMS = count()
/** Names in a feed entry: a post's authors (at most 10) or a webinar's speakers (at most 12), else the publisher. */
const feedPeople = arrayOf({ type: 'object', required: ['name'], properties: { name: text(200) } }, 12)

export const REACH_SCHEMAS: Record<string, SchemaObject> = {
  SearchHit: {
    type: 'object',
    additionalProperties: false,
    required: [
      'id',
      'type',
      'collection',
      'slug',
      'title',
      'summary',
      'url',
      'tags',
      'published_at',
      'updated_at',
      'href',
      'score',
      'snippet',
      'matched_terms',
    ],
    description: 'An item that matched: its common fields, where to read it in full, and why it matched.',
    properties: {
      id,
      type: { enum: COLLECTION_NAMES.map((c) => COLLECTIONS[c].type) },
      collection: { enum: [...COLLECTION_NAMES] },
      slug,
      title: text(200),
      summary: text(400),
      url: uri({ description: 'Canonical page on the marketing site.' }),
      tags: arrayOf(text(MAX_TAG_LENGTH, { pattern: TAG_PATTERN }), 20),
      published_at: instant,
      updated_at: instant,
      href: uriReference({ description: 'The full record: `/api/{collection}/{slug}`.' }),
      score: {
        type: 'number',
        minimum: 0,
        description: 'Relevance (BM25; title, summary and tags weigh more than the body). Higher is better.',
      },
      snippet: text(MAX_SNIPPET_LENGTH, { description: 'Plain text around the best match.' }),
      matched_terms: arrayOf(text(MAX_QUERY_LENGTH), MAX_MATCHED_TERMS, {
        description: `The indexed words the query matched (at most ${MAX_MATCHED_TERMS}).`,
      }),
    },
  },
  SearchResults: {
    type: 'object',
    additionalProperties: false,
    required: ['data', 'meta', 'links'],
    description: 'A page of search hits, best first.',
    properties: {
      data: arrayOf(schemaRef('SearchHit'), MAX_LIMIT),
      meta: {
        type: 'object',
        additionalProperties: false,
        required: ['query', 'limit', 'page', 'count', 'total', 'pages'],
        properties: {
          query: text(MAX_QUERY_LENGTH, { description: 'The words searched for.' }),
          limit: int32(1, MAX_LIMIT),
          page: int32(1, MAX_PAGE),
          count: int32(0, MAX_LIMIT),
          total: { ...ALL_ITEMS, description: 'Hits over all pages.' },
          pages: count(),
        },
      },
      links: schemaRef('ListLinks'),
    },
  },
  Change: {
    type: 'object',
    additionalProperties: false,
    required: ['change', 'id', 'collection', 'slug', 'updated_at', 'changed_at', 'href'],
    description:
      "An item's latest change. `created` and `updated` both mean: fetch `href` and keep it; `deleted` (a tombstone) means: drop the item if you have it.",
    properties: {
      change: {
        enum: ['created', 'updated', 'deleted'],
        description:
          '`created`: not published at the cursor; `updated`: published then and changed since; `deleted`: its file was removed or made a draft.',
      },
      id,
      collection: { enum: [...COLLECTION_NAMES] },
      slug,
      updated_at: { ...instant, description: "The record's `updated_at`; for a deletion, when it was recorded." },
      changed_at: { ...instant, description: 'When the change was committed to the content repository.' },
      href: uriReference({ type: ['string', 'null'], description: 'The full record; null for a deletion.' }),
    },
  },
  ChangeFeed: {
    type: 'object',
    additionalProperties: false,
    required: ['data', 'meta', 'links'],
    description: 'Each item that changed after the cursor, once, oldest change first.',
    properties: {
      data: arrayOf(schemaRef('Change'), MAX_CHANGES_LIMIT),
      meta: {
        type: 'object',
        additionalProperties: false,
        required: ['count', 'limit', 'has_more', 'since', 'next_cursor', 'history', 'warning'],
        properties: {
          count: int32(0, MAX_CHANGES_LIMIT),
          limit: int32(1, MAX_CHANGES_LIMIT),
          has_more: { type: 'boolean', description: 'More changes follow: ask again with `next_cursor` now.' },
          since: text(MAX_CURSOR_LENGTH, { type: ['string', 'null'], description: 'The cursor asked with.' }),
          next_cursor: text(MAX_CURSOR_LENGTH, {
            pattern: '^[A-Za-z0-9_-]+$',
            description: 'Pass as `since` next time: it continues after this answer.',
          }),
          history: {
            enum: ['git', 'shallow', 'none'],
            description:
              '`git`: complete; `shallow`: the build saw only part of the history, older deletions are missing; `none`: no history (items ordered by `updated_at`, no deletions).',
          },
          warning: text(MAX_WARNING_LENGTH, {
            type: ['string', 'null'],
            description: 'Why the history is incomplete.',
          }),
        },
      },
      links,
    },
  },
  JsonFeed: {
    type: 'object',
    required: ['version', 'title', 'items'],
    description: 'JSON Feed 1.1 (https://jsonfeed.org/version/1.1).',
    properties: {
      version: { const: 'https://jsonfeed.org/version/1.1' },
      title: text(500),
      home_page_url: uri(),
      feed_url: uri(),
      description: text(1500),
      language: text(35),
      authors: feedPeople,
      items: arrayOf(
        {
          type: 'object',
          required: ['id', 'url', 'title', 'content_html', 'date_published', 'date_modified'],
          properties: {
            id: text(2000),
            url: uri(),
            title: text(200),
            summary: text(400),
            content_html: text(BODY_LIMITS.html),
            image: uri(),
            date_published: instant,
            date_modified: instant,
            authors: feedPeople,
            tags: arrayOf(text(MAX_TAG_LENGTH), 20),
          },
        },
        FEED_ENTRIES,
      ),
    },
  },
}

const docHeaders = { ETag: headerRef('ETag'), 'Cache-Control': headerRef('Cache-Control'), ...CORS_HEADERS }

function searchOperation(): Json {
  return {
    operationId: 'search',
    tags: ['Search and changes'],
    summary: 'Search all content',
    description:
      'Ranked full-text search across every collection (BM25 with prefix matching and light typo tolerance; the ranking of the MCP search tools). ' +
      'Each hit has a `score` and a `snippet` of its text. Filter with `collection` and `tag`, page with `limit` and `page`. Answers are cacheable (ETag, 304).',
    security: publicReadSecurity(),
    parameters: [
      parameterRef('q'),
      parameterRef('collection'),
      parameterRef('tag'),
      parameterRef('limit'),
      parameterRef('page'),
      parameterRef('ifNoneMatch'),
    ],
    responses: {
      '200': {
        description: 'Hits, best first.',
        headers: { ...contentHeaders, 'X-Total-Count': headerRef('X-Total-Count'), Link: headerRef('Link') },
        content: { 'application/json': { schema: schemaRef('SearchResults') } },
      },
      '304': responseRef('NotModified'),
      ...problems(400, 406, 500, 503),
    },
  }
}

function changesOperation(): Json {
  return {
    operationId: 'listChanges',
    tags: ['Search and changes'],
    summary: 'The change feed',
    description:
      'Keep a copy of the content in sync. Without `since`: every published item once (`created`), oldest change first, and a `next_cursor`. ' +
      'With `since=<cursor>`: each item that changed after it, once, with its latest change, deletions included as tombstones (`deleted`: the file was removed or made a draft). ' +
      'Store `meta.next_cursor` and ask again later; while `meta.has_more`, ask again at once. The cursor is opaque. ' +
      "Changes are dated by the content repository's git history; `meta.history` says when the build had none (no deletions then). " +
      'The first page is a file on the CDN; answers with a cursor come from the gateway.',
    security: publicReadSecurity(),
    parameters: [parameterRef('since'), parameterRef('changesLimit'), parameterRef('ifNoneMatch')],
    responses: {
      '200': {
        description: 'Changes after the cursor.',
        headers: contentHeaders,
        content: { 'application/json': { schema: schemaRef('ChangeFeed') } },
      },
      '304': responseRef('NotModified'),
      ...problems(400, 406, 500, 503),
    },
  }
}

const FEED_FORMAT_NAMES: Record<FeedFormat, string> = { rss: 'RSS 2.0', atom: 'Atom 1.0', json: 'JSON Feed 1.1' }

function feedOperation(format: FeedFormat): Json {
  const mediaType = FEED_TYPES[format].split(';')[0]!
  return {
    get: {
      operationId: `get${format === 'rss' ? 'Rss' : format === 'atom' ? 'Atom' : 'Json'}Feed`,
      tags: ['Feeds and calendars'],
      summary: `${FEED_FORMAT_NAMES[format]} feed`,
      description:
        `The ${FEED_FORMAT_NAMES[format]} feed of a collection, or of everything (\`all\`): the newest items by \`published_at\` with their full HTML body, ` +
        'authors, tags as categories, `updated` dates, and the canonical page URL as a stable id.',
      security: ANONYMOUS,
      parameters: [
        {
          name: 'feed',
          in: 'path',
          required: true,
          description: 'A collection, or `all`.',
          schema: { enum: [...FEED_NAMES] },
        },
      ],
      responses: {
        // XML feeds are documents of their own format (no JSON Schema describes them).
        '200': {
          description: 'The feed.',
          headers: docHeaders,
          content: { [mediaType]: format === 'json' ? { schema: schemaRef('JsonFeed') } : {} },
        },
        '304': responseRef('NotModified'),
        ...problems(400, 404, 500, 503),
      },
    },
  }
}

function calendarOperation(one: boolean): Json {
  const parameters = one
    ? [
        { name: 'collection', in: 'path', required: true, schema: { enum: ['events', 'webinars'] } },
        { name: 'slug', in: 'path', required: true, schema: slug },
      ]
    : [
        {
          name: 'calendar',
          in: 'path',
          required: true,
          description: 'events or webinars.',
          schema: { enum: ['events', 'webinars'] },
        },
      ]
  return {
    get: {
      operationId: one ? 'getItemCalendar' : 'getCalendar',
      tags: ['Feeds and calendars'],
      summary: one ? 'One event or webinar as iCalendar' : 'All events or webinars as iCalendar',
      description:
        "iCalendar (RFC 5545) to subscribe to or import: one VEVENT per published item, with a stable UID, times in the item's time zone (with its VTIMEZONE), " +
        'SUMMARY, DESCRIPTION, URL, LOCATION and STATUS (`event_status`: scheduled and rescheduled → CONFIRMED, postponed → TENTATIVE, cancelled → CANCELLED).',
      security: ANONYMOUS,
      parameters,
      responses: {
        '200': { description: 'The calendar.', headers: docHeaders, content: { 'text/calendar': {} } },
        '304': responseRef('NotModified'),
        ...problems(400, 404, 500, 503),
      },
    },
  }
}

export function reachPaths(): Record<string, Json> {
  const paths: Record<string, Json> = {
    [SEARCH_PATH]: { get: searchOperation() },
    [CHANGES_PATH]: { get: changesOperation() },
  }
  for (const format of Object.keys(FEED_EXTENSIONS) as FeedFormat[])
    paths[`${FEEDS_PREFIX}/{feed}.${FEED_EXTENSIONS[format]}`] = feedOperation(format)
  paths[`${CALENDAR_PREFIX}/{calendar}.ics`] = calendarOperation(false)
  paths[`${CALENDAR_PREFIX}/{collection}/{slug}.ics`] = calendarOperation(true)
  return paths
}
