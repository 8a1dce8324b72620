/**
 * Schemas of the tags, the redirects and a deleted item's problem: what
 * contract/tags.ts and contract/redirects.ts render. The route table
 * (contract/routes/taxonomy.ts) refers to them; each carries an example.
 */
import type { ContentModel } from '../../contract/model/model.ts'
import { LOCALE_QUERY_PATTERN, MAX_LOCALE_LENGTH } from '../../contract/locales.ts'
import { MAX_SLUG_LENGTH, MAX_TAG_LENGTH, SLUG_PATTERN, TAG_PATTERN } from '../../contract/patterns.ts'
import { MAX_LIMIT } from '../../contract/routes/parameters.ts'
import { recordSchemaName } from '../../contract/routes/content.ts'
import { arrayOf, count, instant, int32, schemaRef, text, uri, uriReference } from '../../contract/routes/schema.ts'
import type { SchemaObject } from '../../contract/routes/schema.ts'
import { TAG_LIMITS } from '../core/site-schema.ts'
import { PROBLEM_LIMITS } from '../../contract/problems.ts'
import { collectionNames } from './search-changes-schemas.ts'

const tagName = text(MAX_TAG_LENGTH, { pattern: TAG_PATTERN })
const locale = text(MAX_LOCALE_LENGTH, { pattern: LOCALE_QUERY_PATTERN })
/** More tags than any site has: every distinct tag of every item. */
const MAX_TAGS = 100_000
/** More redirects than any site keeps: every old address of every item. */
const MAX_REDIRECTS = 1_000_000

/** Example counts of `model`'s collections adding up to `total`: all of them in the first. */
export const exampleCounts = (model: ContentModel, total: number): Record<string, number> =>
  Object.fromEntries(model.names.map((c, i) => [c, i === 0 ? total : 0]))

const tagExample = (model: ContentModel) => ({
  tag: 'lineage',
  label: 'Data lineage',
  description: 'Where data comes from and where it goes.',
  count: 5,
  counts: exampleCounts(model, 5),
  href: '/api/tags/lineage',
})

/**
 * A whole listing with its count: `{data: [item…], meta: {count}}`, as the tags, the people and
 * the redirects are answered (no pages: every one of them in one answer).
 */
export function countedList(
  item: string,
  maxItems: number,
  description: string,
  examples: unknown[],
  countDescription?: string,
): SchemaObject {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['data', 'meta'],
    description,
    properties: {
      data: arrayOf(schemaRef(item), maxItems),
      meta: {
        type: 'object',
        additionalProperties: false,
        required: ['count'],
        properties: { count: countDescription === undefined ? count() : count({ description: countDescription }) },
      },
    },
    examples,
  }
}

/** Item counts per collection of `model`, as a tag or a person has them. */
export function collectionCounts(model: ContentModel, description: string): SchemaObject {
  return {
    type: 'object',
    additionalProperties: false,
    description,
    properties: Object.fromEntries(model.names.map((c) => [c, count()])),
  }
}

/** Any summary of `model`'s collections, as a tag's or a person's items list them. */
export const anySummary = (model: ContentModel): SchemaObject => ({
  anyOf: model.names.map((c) => schemaRef(`${recordSchemaName(model.collections[c]!)}Summary`)),
})

export function taxonomySchemas(model: ContentModel): Record<string, SchemaObject> {
  const first = model.names[0] ?? 'blog-posts'
  return {
    Tag: {
      type: 'object',
      additionalProperties: false,
      required: ['tag', 'label', 'description', 'count', 'counts', 'href'],
      description: 'A tag of the published content, with its label and item counts.',
      properties: {
        tag: tagName,
        label: text(TAG_LIMITS.label, {
          description: "The site's label of the tag (site.yaml `tags:`), else the tag itself.",
        }),
        description: text(TAG_LIMITS.description, {
          type: ['string', 'null'],
          description: "The site's description of the tag, or null.",
        }),
        count: count({ description: 'Items with the tag, in the collections counted.' }),
        counts: collectionCounts(
          model,
          'Items with the tag per collection counted (every one, or the one `collection` names).',
        ),
        href: uriReference({ description: "The tag's items: `/api/tags/{tag}`." }),
      },
      examples: [tagExample(model)],
    },
    TagList: countedList(
      'Tag',
      MAX_TAGS,
      'Every tag, highest count first, then by name.',
      [{ data: [tagExample(model)], meta: { count: 1 } }],
      'Tags listed.',
    ),
    TagItems: {
      type: 'object',
      additionalProperties: false,
      required: ['tag', 'data', 'meta', 'links'],
      description:
        'A tag, and a page of its items across collections (summaries, each with its `type`), newest first by `published_at`.',
      properties: {
        tag: schemaRef('Tag'),
        data: arrayOf(anySummary(model), MAX_LIMIT),
        meta: schemaRef('ListMeta'),
        links: schemaRef('ListLinks'),
      },
      // A page past the last: the envelope without items (a page's summaries are the lists' own examples).
      examples: [
        {
          tag: tagExample(model),
          data: [],
          meta: { limit: 10, page: 2, count: 0, total: 5, pages: 1 },
          links: { self: '/api/tags/lineage?page=2', next: null, prev: '/api/tags/lineage' },
        },
      ],
    },
    Redirect: {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'to', 'status'],
      description:
        'An old page of the marketing site: where it leads (301), or that its item is gone (410, `to` null).',
      properties: {
        from: uri({ description: 'The page URL the item had.' }),
        to: uri({
          type: ['string', 'null'],
          description: "The item's page URL now (its record's `url`); null for a 410.",
        }),
        status: { enum: [301, 410] },
        locale: { ...locale, description: "A multilingual site's: the locale whose page it was." },
      },
      examples: [
        {
          from: 'https://www.example.com/blog/data-contracts',
          to: 'https://www.example.com/blog/data-contracts-in-ci',
          status: 301,
        },
        { from: 'https://www.example.com/blog/retired-post', to: null, status: 410 },
      ],
    },
    Redirects: countedList('Redirect', MAX_REDIRECTS, 'Every redirect and gone address of the content, by `from`.', [
      {
        data: [
          {
            from: 'https://www.example.com/blog/data-contracts',
            to: 'https://www.example.com/blog/data-contracts-in-ci',
            status: 301,
          },
          { from: 'https://www.example.com/blog/retired-post', to: null, status: 410 },
        ],
        meta: { count: 2 },
      },
    ]),
    // Not an allOf of Problem: that one's `type` lists the problem types of API 1.0.0 (contract/problems.ts).
    Gone: {
      type: 'object',
      required: ['type', 'title', 'status', 'detail', 'tombstone'],
      description:
        "An RFC 9457 problem detail for a deleted item's address: the problem, and the change feed's tombstone of the item.",
      properties: {
        type: { type: 'string', format: 'uri-reference', const: '/problems/gone' },
        title: text(PROBLEM_LIMITS.title),
        status: int32(410, 410),
        detail: text(PROBLEM_LIMITS.detail, { description: 'When the item was deleted, and its tombstone.' }),
        tombstone: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'collection', 'slug', 'deleted_at'],
          properties: {
            id: text(20, {
              pattern: '^[0-9a-f]{20}$',
              description: "The deleted record's id, as the tombstone names it.",
            }),
            collection: collectionNames(model, 'The collection of the deleted item.'),
            slug: text(MAX_SLUG_LENGTH, { pattern: SLUG_PATTERN }),
            locale: { ...locale, description: "A multilingual site's: the locale of the record deleted." },
            deleted_at: instant({ description: "When it was deleted: the tombstone's `changed_at`." }),
          },
        },
      },
      examples: [
        {
          type: '/problems/gone',
          title: 'Gone',
          status: 410,
          detail: `The ${first} item "retired-post" was deleted at 2026-02-02T00:00:00Z. The change feed (/api/changes) lists its tombstone, id 3f1c0a9e27b4d5c6e8f0.`,
          tombstone: {
            id: '3f1c0a9e27b4d5c6e8f0',
            collection: first,
            slug: 'retired-post',
            deleted_at: '2026-02-02T00:00:00Z',
          },
        },
      ],
    },
  }
}
