/**
 * What ties the content together and keeps its links working: the tags
 * across collections, the redirects found in content/'s history, and the
 * sitemap of the marketing site. `/api/tags` (every collection and locale)
 * and the first page of each tag's items are files of the build; the rest of
 * a tag's pages are computed by the gateway with the same renderer
 * (contract/tags.ts).
 */
import type { ContentModel } from '../model/model.ts'
import { MAX_TAG_LENGTH, TAG_PATTERN } from '../patterns.ts'
import { REDIRECTS_FILE } from '../redirects.ts'
import { REDIRECTS_PATH, SITEMAP_PATH, SITEMAPS_PREFIX, TAGS_PATH } from '../public-paths.ts'
import { tagItemsFile, tagsFile } from '../tags.ts'
import {
  ACCEPT_LANGUAGE,
  DEFAULT_LIMIT,
  EXCLUDE,
  IF_NONE_MATCH,
  LIMIT,
  LOCALE,
  PAGE,
  PUBLISHED_AFTER,
  PUBLISHED_BEFORE,
  UPDATED_SINCE,
} from './parameters.ts'
import {
  ANONYMOUS,
  CONTENT_HEADERS,
  CORS_HEADERS,
  DOCUMENT_HEADERS,
  LOCALE_HEADERS,
  NOT_MODIFIED,
  PAGE_HEADERS,
  problems,
  publicRead,
} from './responses.ts'
import { READ, route, type Parameter, type QueryParameter } from './route.ts'
import { schemaRef, text } from './schema.ts'
import { once } from './collection-parameters.ts'

export const TAXONOMY_TAG = 'Tags and redirects'

/** The limits whose first page of a tag's items is a file: a site has many tags, and each file costs a CDN rule. */
export const TAG_PRERENDERED_LIMITS: readonly number[] = [DEFAULT_LIMIT]

const tagsCollection = (model: ContentModel): QueryParameter =>
  once(model, 'tags collection', () => ({
    component: 'tagsCollection',
    name: 'collection',
    in: 'query',
    required: false,
    description: "Only this collection's items are counted (and only tags it uses are listed).",
    http: 'Another value is a 400.',
    schema: { enum: [...model.names] },
  }))

const TAG_PATH: Parameter = {
  name: 'tag',
  in: 'path',
  required: true,
  description: 'The tag, as `/api/tags` lists it (lowercase letters, digits and single hyphens).',
  schema: text(MAX_TAG_LENGTH, { pattern: TAG_PATTERN, examples: ['lineage'] }),
}

/** The filters of a tag's items: those of the lists that apply to every collection. */
export const TAG_FILTERS: readonly QueryParameter[] = [UPDATED_SINCE, PUBLISHED_AFTER, PUBLISHED_BEFORE, EXCLUDE]

export const tags = route({
  path: TAGS_PATH,
  methods: READ,
  served: 'gateway',
  parameters: (model) => once(model, 'tags', () => [tagsCollection(model), LOCALE, IF_NONE_MATCH, ACCEPT_LANGUAGE]),
  budgets: ['computed'],
  prerendered: {
    computedBy: [],
    fileParameter: { name: 'collection', values: (model) => model.names, bare: '' },
    file: (_, collection) => tagsFile(collection || undefined),
    locale: { name: 'locale', localeFile: (_, locale, collection) => tagsFile(collection || undefined, locale) },
  },
  operations: {
    get: {
      operationId: 'listTags',
      tags: [TAXONOMY_TAG],
      summary: 'List every tag',
      description:
        'Every tag of the published items, with its label (and description) where the site declares one (an undeclared tag is its own label), ' +
        'its item count per collection and in total, and the link to its items. Highest count first, then by name. ' +
        "`collection` counts one collection's items only; on a multilingual site the tags are those of the locale read (`locale`, else Accept-Language). " +
        'Every answer is a pre-rendered file on the CDN.',
      security: publicRead(),
      responses: {
        '200': {
          description: 'The tags.',
          headers: { ...CONTENT_HEADERS, ...LOCALE_HEADERS },
          content: { 'application/json': { schema: schemaRef('TagList') } },
        },
        '304': NOT_MODIFIED,
        ...problems(400, 406, 500, 503),
      },
    },
  },
})

export const tag = route({
  path: `${TAGS_PATH}/{tag}`,
  methods: READ,
  served: 'gateway',
  parameters: [TAG_PATH, LIMIT, PAGE, ...TAG_FILTERS, LOCALE, IF_NONE_MATCH, ACCEPT_LANGUAGE],
  budgets: ['computed'],
  prerendered: {
    computedBy: ['page', ...TAG_FILTERS.map((p) => p.name)],
    fileParameter: { name: 'limit', values: TAG_PRERENDERED_LIMITS.map(String), bare: String(DEFAULT_LIMIT) },
    file: (path, limit = String(DEFAULT_LIMIT)) => tagItemsFile(path.tag!, Number(limit)),
    locale: {
      name: 'locale',
      localeFile: (path, locale, limit = String(DEFAULT_LIMIT)) => tagItemsFile(path.tag!, Number(limit), locale),
    },
  },
  operations: {
    get: {
      operationId: 'listTagItems',
      tags: [TAXONOMY_TAG],
      summary: "A tag's items across collections",
      description:
        'The tag (as `/api/tags` lists it), then its items in every collection as a list envelope: summaries without a body, each with its `type`, newest first by `published_at`, ' +
        `${DEFAULT_LIMIT} a page unless \`limit\` says otherwise. The filters of the lists that apply to every collection narrow them (\`updated_since\`, \`published_after\`, \`published_before\`, \`exclude\`); ` +
        "for one collection's items, list it with `tag=`. Page 1 at the default limit is a pre-rendered file; the rest is rendered by the gateway. " +
        'A tag no published item has (in the locale read) is a 404.',
      security: publicRead(),
      responses: {
        '200': {
          description: "A page of the tag's items.",
          headers: { ...PAGE_HEADERS, ...LOCALE_HEADERS },
          content: { 'application/json': { schema: schemaRef('TagItems') } },
        },
        '304': NOT_MODIFIED,
        ...problems(400, 404, 406, 500, 503),
      },
    },
  },
})

export const redirects = route({
  path: REDIRECTS_PATH,
  methods: READ,
  served: 'gateway',
  parameters: [IF_NONE_MATCH],
  prerendered: { computedBy: [], file: () => REDIRECTS_FILE },
  operations: {
    get: {
      operationId: 'listRedirects',
      tags: [TAXONOMY_TAG],
      summary: 'Every redirect of the content',
      description:
        "The addresses the content left behind, in the marketing site's page URLs (the records' `url`), so the site can serve its own: " +
        "each item's old address, found in the content repository's git history (a file renamed or moved, a `slug:` changed), as a 301 to where the item is now, " +
        "and each deleted item's address as a 410 (`to` is null). A chain of moves is one hop, to a published item, and a published item is never redirected. " +
        "The API does the same for its items: `/api/{collection}/{old-slug}` answers 301 with `Location`, a deleted item's address 410 with a problem naming its tombstone. " +
        'A pre-rendered file on the CDN.',
      security: ANONYMOUS,
      responses: {
        '200': {
          description: 'The redirects, by `from`.',
          headers: CONTENT_HEADERS,
          content: { 'application/json': { schema: schemaRef('Redirects') } },
        },
        '304': NOT_MODIFIED,
        ...problems(400, 406, 500, 503),
      },
    },
  },
})

const SITEMAP_DESCRIPTION =
  "The marketing site's canonical page of every published item (sitemaps.org protocol 0.9): `lastmod` from `updated_at`, and on a multilingual site an " +
  '`xhtml:link rel="alternate" hreflang` for each translation and `x-default`. Never a draft, a scheduled or an expired item. ' +
  "Past 50,000 URLs or 50 MB it is a sitemap index of parts under `/sitemaps/`. Served from this API, for the site's robots.txt to name (`Sitemap: <this URL>`)."

function xmlDocument(operationId: string, summary: string) {
  return {
    operationId,
    tags: [TAXONOMY_TAG],
    summary,
    description: SITEMAP_DESCRIPTION,
    security: ANONYMOUS,
    responses: {
      '200': { description: summary, headers: DOCUMENT_HEADERS, content: { 'application/xml': {} } },
      '304': NOT_MODIFIED,
      ...problems(400, 404, 500, 503),
    },
  }
}

export const sitemap = route({
  path: SITEMAP_PATH,
  methods: READ,
  served: 'file',
  operations: { get: xmlDocument('getSitemap', 'Sitemap (or sitemap index)') },
})

export const sitemapPart = route({
  path: `${SITEMAPS_PREFIX}/{part}.xml`,
  methods: READ,
  served: 'file',
  parameters: [
    {
      name: 'part',
      in: 'path',
      required: true,
      description: 'The part, from 1, as the sitemap index lists them (only a site past its limits has parts).',
      schema: text(6, { pattern: '^[1-9][0-9]{0,5}$' }),
    },
  ],
  operations: { get: xmlDocument('getSitemapPart', 'One part of the sitemap index') },
})

/** An item's old address (content/'s history, or an alias): where the item is now. */
export const MOVED = {
  description:
    "The item moved (its file was renamed or its slug changed): `Location` is its address now, the request's query kept. A chain of moves is one hop.",
  headers: {
    Location: {
      description: 'Where the item is now.',
      required: true,
      schema: text(2000, { format: 'uri-reference' }),
    },
    'Cache-Control': { $ref: '#/components/headers/Cache-Control' },
    ...CORS_HEADERS,
  },
}

/** A deleted item's address: a problem naming its tombstone. */
export const GONE = {
  description:
    "`/problems/gone`: the item at this address was deleted (its file removed, made a draft or expired); `tombstone` names the change feed's entry.",
  headers: { 'Cache-Control': { $ref: '#/components/headers/Cache-Control' }, ...CORS_HEADERS },
  content: { 'application/problem+json': { schema: schemaRef('Gone') } },
}
