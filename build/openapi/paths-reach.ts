/**
 * Operations that take content further: search across collections, the
 * change feed, feeds (RSS, Atom, JSON Feed) and calendars (iCalendar).
 */
import type { SchemaObject } from 'ajv'
import { DEFAULT_CHANGES_LIMIT, MAX_CHANGES_LIMIT } from '../contract/changes.ts'
import { COLLECTION_NAMES, COLLECTIONS } from '../contract/collections.ts'
import { FEED_NAMES, FEED_TYPES } from '../contract/documents.ts'
import { SLUG_PATTERN, TAG_PATTERN } from '../contract/patterns.ts'
import { CALENDAR_PREFIX, CHANGES_PATH, FEED_EXTENSIONS, FEEDS_PREFIX, SEARCH_PATH, type FeedFormat } from '../contract/public-paths.ts'
import { MAX_QUERY_LENGTH } from '../contract/search.ts'
import { headerRef, parameterRef, responseRef, schemaRef } from './components.ts'
import { contentHeaders, problems } from './paths-content.ts'
import { publicReadSecurity } from './security.ts'

type Json = Record<string, unknown>

export const REACH_TAGS = [
  { name: 'Search and changes', description: 'Ranked search across collections, and the change feed for keeping a copy in sync.' },
  { name: 'Feeds and calendars', description: 'RSS 2.0, Atom 1.0 and JSON Feed 1.1 feeds; iCalendar files of events and webinars.' },
]

export const REACH_PARAMETERS: Record<string, Json> = {
  q: {
    name: 'q', in: 'query', required: true,
    description: `The words or phrase to look for, 1 to ${MAX_QUERY_LENGTH} characters (trimmed). Missing, empty or longer is a 400.`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH },
  },
  collection: {
    name: 'collection', in: 'query', required: false,
    description: 'Only search this collection.',
    schema: { enum: [...COLLECTION_NAMES] },
  },
  since: {
    name: 'since', in: 'query', required: false,
    description: 'A cursor from an earlier answer (`meta.next_cursor`): only what changed after it. Opaque; a malformed one is a 400.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
  },
  changesLimit: {
    name: 'limit', in: 'query', required: false,
    description: `Changes per answer, an integer from 1 to ${MAX_CHANGES_LIMIT}; \`meta.has_more\` says whether to ask again with \`next_cursor\`.`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_CHANGES_LIMIT, default: DEFAULT_CHANGES_LIMIT },
  },
  updatedSince: {
    name: 'updated_since', in: 'query', required: false,
    description: 'Only items whose `updated_at` is after this instant: an RFC 3339 date-time with offset, e.g. `2026-03-01T00:00:00Z`. Anything else is a 400.',
    schema: { type: 'string', format: 'date-time' },
  },
}

const instant: SchemaObject = { type: 'string', format: 'date-time' }
const links: SchemaObject = {
  type: 'object', additionalProperties: false, required: ['self', 'next'],
  properties: { self: { type: 'string', format: 'uri-reference' }, next: { type: 'string', format: 'uri-reference', description: 'This feed after `next_cursor`.' } },
}

export const REACH_SCHEMAS: Record<string, SchemaObject> = {
  SearchHit: {
    type: 'object', additionalProperties: false,
    required: ['id', 'type', 'collection', 'slug', 'title', 'summary', 'url', 'tags', 'published_at', 'updated_at', 'href', 'score', 'snippet', 'matched_terms'],
    description: 'An item that matched: its common fields, where to read it in full, and why it matched.',
    properties: {
      id: { type: 'string', pattern: '^[0-9a-f]{20}$' },
      type: { enum: COLLECTION_NAMES.map((c) => COLLECTIONS[c].type) },
      collection: { enum: [...COLLECTION_NAMES] },
      slug: { type: 'string', pattern: SLUG_PATTERN },
      title: { type: 'string' },
      summary: { type: 'string' },
      url: { type: 'string', format: 'uri', description: 'Canonical page on the marketing site.' },
      tags: { type: 'array', items: { type: 'string', pattern: TAG_PATTERN } },
      published_at: instant,
      updated_at: instant,
      href: { type: 'string', format: 'uri-reference', description: 'The full record: `/api/{collection}/{slug}`.' },
      score: { type: 'number', minimum: 0, description: 'Relevance (BM25; title, summary and tags weigh more than the body). Higher is better.' },
      snippet: { type: 'string', description: 'Plain text around the best match.' },
      matched_terms: { type: 'array', items: { type: 'string' } },
    },
  },
  SearchResults: {
    type: 'object', additionalProperties: false, required: ['data', 'meta', 'links'],
    description: 'A page of search hits, best first.',
    properties: {
      data: { type: 'array', items: schemaRef('SearchHit') },
      meta: {
        type: 'object', additionalProperties: false, required: ['query', 'limit', 'page', 'count', 'total', 'pages'],
        properties: {
          query: { type: 'string', description: 'The words searched for.' },
          limit: { type: 'integer', minimum: 1 }, page: { type: 'integer', minimum: 1 },
          count: { type: 'integer', minimum: 0 }, total: { type: 'integer', minimum: 0, description: 'Hits over all pages.' }, pages: { type: 'integer', minimum: 0 },
        },
      },
      links: schemaRef('ListLinks'),
    },
  },
  Change: {
    type: 'object', additionalProperties: false, required: ['change', 'id', 'collection', 'slug', 'updated_at', 'changed_at', 'href'],
    description: 'An item\'s latest change. `created` and `updated` both mean: fetch `href` and keep it; `deleted` (a tombstone) means: drop the item if you have it.',
    properties: {
      change: { enum: ['created', 'updated', 'deleted'], description: '`created`: not published at the cursor; `updated`: published then and changed since; `deleted`: its file was removed or made a draft.' },
      id: { type: 'string', pattern: '^[0-9a-f]{20}$' },
      collection: { enum: [...COLLECTION_NAMES] },
      slug: { type: 'string', pattern: SLUG_PATTERN },
      updated_at: { ...instant, description: 'The record\'s `updated_at`; for a deletion, when it was recorded.' },
      changed_at: { ...instant, description: 'When the change was committed to the content repository.' },
      href: { type: ['string', 'null'], format: 'uri-reference', description: 'The full record; null for a deletion.' },
    },
  },
  ChangeFeed: {
    type: 'object', additionalProperties: false, required: ['data', 'meta', 'links'],
    description: 'Each item that changed after the cursor, once, oldest change first.',
    properties: {
      data: { type: 'array', items: schemaRef('Change') },
      meta: {
        type: 'object', additionalProperties: false, required: ['count', 'limit', 'has_more', 'since', 'next_cursor', 'history', 'warning'],
        properties: {
          count: { type: 'integer', minimum: 0 },
          limit: { type: 'integer', minimum: 1, maximum: MAX_CHANGES_LIMIT },
          has_more: { type: 'boolean', description: 'More changes follow: ask again with `next_cursor` now.' },
          since: { type: ['string', 'null'], description: 'The cursor asked with.' },
          next_cursor: { type: 'string', description: 'Pass as `since` next time: it continues after this answer.' },
          history: { enum: ['git', 'shallow', 'none'], description: '`git`: complete; `shallow`: the build saw only part of the history, older deletions are missing; `none`: no history (items ordered by `updated_at`, no deletions).' },
          warning: { type: ['string', 'null'], description: 'Why the history is incomplete.' },
        },
      },
      links,
    },
  },
  JsonFeed: {
    type: 'object', required: ['version', 'title', 'items'],
    description: 'JSON Feed 1.1 (https://jsonfeed.org/version/1.1).',
    properties: {
      version: { const: 'https://jsonfeed.org/version/1.1' },
      title: { type: 'string' }, home_page_url: { type: 'string', format: 'uri' }, feed_url: { type: 'string', format: 'uri' },
      description: { type: 'string' }, language: { type: 'string' },
      authors: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
      items: {
        type: 'array',
        items: {
          type: 'object', required: ['id', 'url', 'title', 'content_html', 'date_published', 'date_modified'],
          properties: {
            id: { type: 'string' }, url: { type: 'string', format: 'uri' }, title: { type: 'string' }, summary: { type: 'string' },
            content_html: { type: 'string' }, image: { type: 'string', format: 'uri' }, date_published: instant, date_modified: instant,
            authors: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  },
}

const docHeaders = { ETag: headerRef('ETag'), 'Cache-Control': headerRef('CacheControl') }

function searchOperation(): Json {
  return {
    operationId: 'search',
    tags: ['Search and changes'],
    summary: 'Search all content',
    description:
      'Ranked full-text search across every collection (BM25 with prefix matching and light typo tolerance; the ranking of the MCP search tools). ' +
      'Each hit has a `score` and a `snippet` of its text. Filter with `collection` and `tag`, page with `limit` and `page`. Answers are cacheable (ETag, 304).',
    security: publicReadSecurity(),
    parameters: [parameterRef('q'), parameterRef('collection'), parameterRef('tag'), parameterRef('limit'), parameterRef('page'), parameterRef('ifNoneMatch')],
    responses: {
      '200': {
        description: 'Hits, best first.',
        headers: { ...contentHeaders, 'X-Total-Count': headerRef('XTotalCount'), Link: headerRef('Link') },
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
      'Changes are dated by the content repository\'s git history; `meta.history` says when the build had none (no deletions then). ' +
      'The first page is a file on the CDN; answers with a cursor come from the gateway.',
    security: publicReadSecurity(),
    parameters: [parameterRef('since'), parameterRef('changesLimit'), parameterRef('ifNoneMatch')],
    responses: {
      '200': { description: 'Changes after the cursor.', headers: contentHeaders, content: { 'application/json': { schema: schemaRef('ChangeFeed') } } },
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
      security: [],
      parameters: [{ name: 'feed', in: 'path', required: true, description: 'A collection, or `all`.', schema: { enum: [...FEED_NAMES] } }],
      responses: {
        '200': { description: 'The feed.', headers: docHeaders, content: { [mediaType]: { schema: format === 'json' ? schemaRef('JsonFeed') : { type: 'string' } } } },
        '304': responseRef('NotModified'),
        ...problems(404, 500, 503),
      },
    },
  }
}

function calendarOperation(one: boolean): Json {
  const parameters = one
    ? [
        { name: 'collection', in: 'path', required: true, schema: { enum: ['events', 'webinars'] } },
        { name: 'slug', in: 'path', required: true, schema: { type: 'string', pattern: SLUG_PATTERN, maxLength: 120 } },
      ]
    : [{ name: 'calendar', in: 'path', required: true, description: 'events or webinars.', schema: { enum: ['events', 'webinars'] } }]
  return {
    get: {
      operationId: one ? 'getItemCalendar' : 'getCalendar',
      tags: ['Feeds and calendars'],
      summary: one ? 'One event or webinar as iCalendar' : 'All events or webinars as iCalendar',
      description:
        'iCalendar (RFC 5545) to subscribe to or import: one VEVENT per published item, with a stable UID, times in the item\'s time zone (with its VTIMEZONE), ' +
        'SUMMARY, DESCRIPTION, URL, LOCATION and STATUS (`event_status`: scheduled and rescheduled → CONFIRMED, postponed → TENTATIVE, cancelled → CANCELLED).',
      security: [],
      parameters,
      responses: {
        '200': { description: 'The calendar.', headers: docHeaders, content: { 'text/calendar': { schema: { type: 'string' } } } },
        '304': responseRef('NotModified'),
        ...problems(404, 500, 503),
      },
    },
  }
}

export function reachPaths(): Record<string, Json> {
  const paths: Record<string, Json> = { [SEARCH_PATH]: { get: searchOperation() }, [CHANGES_PATH]: { get: changesOperation() } }
  for (const format of Object.keys(FEED_EXTENSIONS) as FeedFormat[]) paths[`${FEEDS_PREFIX}/{feed}.${FEED_EXTENSIONS[format]}`] = feedOperation(format)
  paths[`${CALENDAR_PREFIX}/{calendar}.ics`] = calendarOperation(false)
  paths[`${CALENDAR_PREFIX}/{collection}/{slug}.ics`] = calendarOperation(true)
  return paths
}
