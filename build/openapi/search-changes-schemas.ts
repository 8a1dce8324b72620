/**
 * Schemas of what takes content further: search hits and results, the change
 * feed, JSON Feed. The route table (contract/routes/search-changes-feeds.ts) refers to them.
 */
import { MAX_WARNING_LENGTH } from '../../contract/changes.ts'
import { MAX_CHANGES_LIMIT, MAX_CURSOR_LENGTH } from '../../contract/routes/search-changes-parameters.ts'
import type { ContentModel } from '../../contract/model/model.ts'
import { FEED_ENTRIES } from '../../contract/documents.ts'
import { LOCALE_QUERY_PATTERN, MAX_LOCALE_LENGTH } from '../../contract/locales.ts'
import { MAX_SLUG_LENGTH, MAX_TAG_LENGTH, SLUG_PATTERN, TAG_PATTERN } from '../../contract/patterns.ts'
import { BODY_LIMITS } from '../../contract/records.ts'
import { MAX_LIMIT, MAX_PAGE } from '../../contract/routes/parameters.ts'
import {
  arrayOf,
  count,
  instant as dateTime,
  int32,
  schemaRef,
  text,
  uri,
  uriReference,
  type SchemaObject,
} from '../../contract/routes/schema.ts'
import { MAX_MATCHED_TERMS, MAX_QUERY_LENGTH, MAX_SNIPPET_LENGTH } from '../../contract/search.ts'
import { extensibleEnum } from './schema-tools.ts'

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

/** The collections of `model`, as answers name them: more may come (a team adds one). */
export const collectionNames = (model: ContentModel, description = 'The collection of the item.') =>
  extensibleEnum(
    model.names,
    `${description} One of the collections the site has; more may be added: take any other as a collection too.`,
  )

export function searchChangesSchemas(model: ContentModel): Record<string, SchemaObject> {
  return {
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
        'section',
        'matched_terms',
      ],
      description: 'An item that matched: its common fields, where to read it in full, and why it matched.',
      properties: {
        id,
        type: extensibleEnum(
          model.names.map((c) => model.collections[c]!.type),
          "The item's record type (its collection's label in snake_case); more may come with new collections.",
        ),
        collection: collectionNames(model),
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
        section: {
          anyOf: [
            {
              type: 'object',
              additionalProperties: false,
              required: ['id', 'text', 'url'],
              properties: {
                id: text(BODY_LIMITS.text, { description: "The heading's id: its `toc` entry's." }),
                text: text(BODY_LIMITS.text, { description: 'The heading as plain text.' }),
                url: uri({ description: 'The canonical page with the section’s anchor (`url#id`): cite this.' }),
              },
            },
            { type: 'null' },
          ],
          description:
            'The section of the body the best match is in (the snippet’s); null when it is before the first heading, or the item matched on its title, summary or tags only.',
        },
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
            "`created`: not published at the cursor; `updated`: published then and changed since (its file, or on a multilingual site its `translations`); `deleted`: its file was removed, made a draft or expired (in a locale's feed also: a stand-in default record whose translation appeared).",
        },
        id,
        collection: collectionNames(model),
        slug,
        locale: text(MAX_LOCALE_LENGTH, {
          pattern: LOCALE_QUERY_PATTERN,
          description:
            "A multilingual site's: the record's locale, the feed's own or, where the feed's locale falls back, the default locale's (a stand-in for a missing translation).",
        }),
        updated_at: { ...instant, description: "The record's `updated_at`; for a deletion, when it was recorded." },
        changed_at: { ...instant, description: 'When the change was committed to the content repository.' },
        href: uriReference({
          type: ['string', 'null'],
          description:
            "The full record (in a locale's feed, with its `locale=`, so the record is that locale's whatever Accept-Language says); null for a deletion.",
        }),
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
}
