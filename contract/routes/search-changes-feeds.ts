/**
 * What takes content further: search across collections and the change feed
 * (computed by the gateway, but for the feed's first page), feeds and
 * calendars (files of the build).
 */
import { CHANGES_FILE } from '../changes.ts'
import { localeChangesFile } from '../paths.ts'
import { feedNames, FEED_TYPES } from '../documents.ts'
import { datedCollections, listed, type ContentModel } from '../model/model.ts'
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from '../patterns.ts'
import { CALENDAR_PREFIX, CHANGES_PATH, FEED_EXTENSIONS, FEEDS_PREFIX, SEARCH_PATH } from '../public-paths.ts'
import type { FeedFormat } from '../public-paths.ts'
import { collectionFilter, once, sharedFilters } from './collection-parameters.ts'
import { ACCEPT_LANGUAGE, IF_NONE_MATCH, LIMIT, LOCALE, PAGE } from './parameters.ts'
import { CHANGES_LIMIT, CHANGES_LOCALE, QUERY, SINCE } from './search-changes-parameters.ts'
import {
  ANONYMOUS,
  CONTENT_HEADERS,
  DOCUMENT_HEADERS,
  LOCALE_HEADERS,
  NOT_MODIFIED,
  PAGE_HEADERS,
  problems,
  publicRead,
} from './responses.ts'
import { READ, route, type Route } from './route.ts'
import { schemaRef, text } from './schema.ts'

const TAG_NAME = 'Search and changes'
const FILES_TAG = 'Feeds and calendars'

export const search = route({
  path: SEARCH_PATH,
  methods: READ,
  served: 'gateway',
  parameters: (model) =>
    once(model, 'search', () => [
      QUERY,
      collectionFilter(model),
      ...sharedFilters(model),
      LIMIT,
      PAGE,
      LOCALE,
      IF_NONE_MATCH,
      ACCEPT_LANGUAGE,
    ]),
  budgets: ['computed'],
  operations: {
    get: {
      operationId: 'search',
      tags: [TAG_NAME],
      summary: 'Search all content',
      description:
        'Ranked full-text search across every collection (BM25 with prefix matching and light typo tolerance; the ranking of the MCP search tools). ' +
        'Each hit has a `score`, a `snippet` of its text and the `section` of the body the match is in (its heading and `url#id` anchor). Filter with `collection` and the filters of the lists (`tag`, `updated_since`, `published_after`, `published_before`, `author`, `when`, `exclude`; each hit is tested, so `author` keeps only items with people and `when` only events and webinars), page with `limit` and `page`. Answers are cacheable (ETag, 304). ' +
        "On a multilingual site the search runs in the reader's locale (`locale`, else Accept-Language): that locale's items, with words reduced to their stems in its language (`Verträge` finds `Vertrag`) and accents folded.",
      security: publicRead(),
      responses: {
        '200': {
          description: 'Hits, best first.',
          headers: { ...PAGE_HEADERS, ...LOCALE_HEADERS },
          content: { 'application/json': { schema: schemaRef('SearchResults') } },
        },
        '304': NOT_MODIFIED,
        ...problems(400, 406, 500, 503),
      },
    },
  },
})

export const changes = route({
  path: CHANGES_PATH,
  methods: READ,
  served: 'gateway',
  parameters: [SINCE, CHANGES_LIMIT, CHANGES_LOCALE, IF_NONE_MATCH],
  budgets: ['computed'],
  prerendered: {
    computedBy: ['since', 'limit'],
    file: () => CHANGES_FILE,
    locale: { name: 'locale', localeFile: (_, locale) => localeChangesFile(locale), negotiated: false },
  },
  operations: {
    get: {
      operationId: 'listChanges',
      tags: [TAG_NAME],
      summary: 'The change feed',
      description:
        'Keep a copy of the content in sync. Without `since`: every published item once (`created`), oldest change first, and a `next_cursor`. ' +
        'With `since=<cursor>`: each item that changed after it, once, with its latest change, deletions included as tombstones (`deleted`: the file was removed or made a draft). ' +
        'Store `meta.next_cursor` and ask again later; while `meta.has_more`, ask again at once. The cursor is opaque. ' +
        "Changes are dated by the content repository's git history; `meta.history` says when the build had none (no deletions then). " +
        'The first page is a file on the CDN; answers with a cursor come from the gateway. ' +
        "A multilingual site has a feed per locale: `?locale=de` lists the records German readers get (its translations and, where it falls back, the default locale's items it lacks), each entry naming its record's `locale`; a translation removed, made a draft or expired is a tombstone of its own id, followed (where the locale falls back) by `created` for the default record that stands in, and the reverse when a translation appears. A translation appearing, going or changing its slug changes the `translations` of the item's other records, which are then `updated`. " +
        'Only `locale` chooses the feed, never Accept-Language, and each feed has its own cursors: keep one cursor per locale you follow.',
      security: publicRead(),
      responses: {
        '200': {
          description: 'Changes after the cursor.',
          headers: { ...CONTENT_HEADERS, 'Content-Language': LOCALE_HEADERS['Content-Language'] },
          content: { 'application/json': { schema: schemaRef('ChangeFeed') } },
        },
        '304': NOT_MODIFIED,
        ...problems(400, 406, 500, 503),
      },
    },
  },
})

const FORMAT_NAMES: Record<FeedFormat, string> = { rss: 'RSS 2.0', atom: 'Atom 1.0', json: 'JSON Feed 1.1' }
const OPERATION_IDS: Record<FeedFormat, string> = { rss: 'getRssFeed', atom: 'getAtomFeed', json: 'getJsonFeed' }

function feed(format: FeedFormat): Route {
  const mediaType = FEED_TYPES[format].split(';')[0]!
  return route({
    path: `${FEEDS_PREFIX}/{feed}.${FEED_EXTENSIONS[format]}`,
    methods: READ,
    served: 'file',
    parameters: (model) => [
      {
        name: 'feed',
        in: 'path',
        required: true,
        description: 'A collection, or `all`.',
        schema: { enum: feedNames(model) },
      },
    ],
    operations: {
      get: {
        operationId: OPERATION_IDS[format],
        tags: [FILES_TAG],
        summary: `${FORMAT_NAMES[format]} feed`,
        description:
          `The ${FORMAT_NAMES[format]} feed of a collection, or of everything (\`all\`): the newest items by \`published_at\` with their full HTML body, ` +
          'authors, tags as categories, `updated` dates, and the canonical page URL as a stable id. ' +
          "A multilingual site has the same feeds of each other locale's lists under `/feeds/{locale}/` (e.g. `/feeds/de/all.xml`), in that language.",
        security: ANONYMOUS,
        responses: {
          // XML feeds are documents of their own format (no JSON Schema describes them).
          '200': {
            description: 'The feed.',
            headers: DOCUMENT_HEADERS,
            content: { [mediaType]: format === 'json' ? { schema: schemaRef('JsonFeed') } : {} },
          },
          '304': NOT_MODIFIED,
          ...problems(400, 404, 500, 503),
        },
      },
    },
  })
}

export const rssFeed = feed('rss')
export const atomFeed = feed('atom')
export const jsonFeed = feed('json')

const CALENDAR_DESCRIPTION =
  "iCalendar (RFC 5545) to subscribe to or import: one VEVENT per published item, with a stable UID, times in the item's time zone (with its VTIMEZONE), " +
  'SUMMARY, DESCRIPTION, URL, LOCATION and STATUS (`event_status`: scheduled and rescheduled → CONFIRMED, postponed → TENTATIVE, cancelled → CANCELLED). ' +
  "A multilingual site has each other locale's calendars under `/calendar/{locale}/` (e.g. `/calendar/de/events.ics`)."
/** The calendars: one per dated collection. */
const calendars = (model: ContentModel) => ({ enum: datedCollections(model) })
const calendarResponses = {
  '200': { description: 'The calendar.', headers: DOCUMENT_HEADERS, content: { 'text/calendar': {} } },
  '304': NOT_MODIFIED,
  ...problems(400, 404, 500, 503),
}

export const calendar = route({
  path: `${CALENDAR_PREFIX}/{calendar}.ics`,
  methods: READ,
  served: 'file',
  parameters: (model) => [
    {
      name: 'calendar',
      in: 'path',
      required: true,
      description: `${listed(datedCollections(model), 'or')}.`,
      schema: calendars(model),
    },
  ],
  operations: {
    get: {
      operationId: 'getCalendar',
      tags: [FILES_TAG],
      summary: 'All events or webinars as iCalendar',
      description: CALENDAR_DESCRIPTION,
      security: ANONYMOUS,
      responses: calendarResponses,
    },
  },
})

export const itemCalendar = route({
  path: `${CALENDAR_PREFIX}/{collection}/{slug}.ics`,
  methods: READ,
  served: 'file',
  parameters: (model) => [
    { name: 'collection', in: 'path', required: true, schema: calendars(model) },
    { name: 'slug', in: 'path', required: true, schema: text(MAX_SLUG_LENGTH, { pattern: SLUG_PATTERN }) },
  ],
  operations: {
    get: {
      operationId: 'getItemCalendar',
      tags: [FILES_TAG],
      summary: 'One event or webinar as iCalendar',
      description: CALENDAR_DESCRIPTION,
      security: ANONYMOUS,
      responses: calendarResponses,
    },
  },
})
