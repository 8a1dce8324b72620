/**
 * The preview API for reviewers, beside the public one and never instead of
 * it: `/api/preview/{collection}`, `/api/preview/{collection}/{slug}` and
 * `/api/preview/search` take the public routes' parameters and answer with
 * the same renderer, drafts, scheduled and expired items included, each
 * record with its `state` and a scheduled item's `release_at`. They need the
 * `content.preview.read` scope (a `preview.read` API key), are never a file
 * of dist/ and never kept by a shared cache. `/review/{token}` is a share
 * link's page of one item (gateway/preview/share-page.ts), and
 * `POST /api/preview/{collection}/{slug}/share-links` makes one for the
 * editor's "Share preview link" button (gateway/preview/link-route.ts).
 */
import type { CollectionModel, ContentModel } from '../model/model.ts'
import { JSON_MEDIA_TYPE } from '../headers.ts'
import { PREVIEW_CACHE, PREVIEW_STATES } from '../preview.ts'
import { PREVIEW_API_PATH, REVIEW_PREFIX } from '../public-paths.ts'
import { itemParameters, listParameters, recordSchemaName, tagOf } from './content.ts'
import { search } from './search-changes-feeds.ts'
import { MAX_LIMIT } from './parameters.ts'
import { CORS_HEADERS, LOCALE_HEADERS, problems } from './responses.ts'
import { READ, route, type Parameter, type SecurityRequirement } from './route.ts'
import { headerRef, schemaRef, text } from './schema.ts'

/** Only the preview scope: anonymous callers, the sandbox key and agents' keys are refused. */
const PREVIEW_READ: SecurityRequirement[] = [{ oauth2: ['content.preview.read'] }, { apiKey: [] }]

export const PREVIEW_TAG = {
  name: 'Preview',
  description:
    'Drafts and scheduled items for reviewers, behind the `content.preview.read` scope: the public routes, every item included, never cached.',
}
const TAG = PREVIEW_TAG.name

const each = { parameter: 'collection', values: (model: ContentModel) => model.names }
const collectionOf = (value: string, model: ContentModel): CollectionModel => model.collections[value]!

const HEADERS = {
  'Cache-Control': { ...(headerRef('Cache-Control') as object), description: `Always \`${PREVIEW_CACHE}\`.` },
  'X-Request-Id': headerRef('X-Request-Id'),
  ...CORS_HEADERS,
  ...LOCALE_HEADERS,
}

/** What a preview record adds to the public record of its collection. */
const PREVIEW_FIELDS = {
  state: {
    type: 'string',
    enum: [...PREVIEW_STATES],
    description:
      '`draft` (never published as it stands), `scheduled` (published at `release_at`), `published`, or `expired` (published no more).',
  },
  release_at: {
    type: ['string', 'null'],
    format: 'date-time',
    maxLength: 40,
    description: 'When a scheduled item is published; null for the other states.',
  },
}

/** `of`: the component of the public answer the record is one of (`BlogPost`, `BlogPostList`'s items, `SearchResults`' hits). */
function previewRecord(of: string) {
  return {
    type: 'object',
    required: ['state', 'release_at'],
    description: `As \`components/schemas/${of}\` describes it, plus \`state\` and \`release_at\`.`,
    properties: PREVIEW_FIELDS,
  }
}

const SECURITY_NOTE =
  'Needs the `content.preview.read` scope (an OAuth token with it, or a `preview.read` API key): without a credential 401, with another one 403 `insufficient_scope`. ' +
  `Never cached by a shared cache (\`Cache-Control: ${PREVIEW_CACHE}\`) and never a file of the build; the public routes never answer with a draft, whatever the credential.`

export const previewList = route({
  path: `${PREVIEW_API_PATH}/{collection}`,
  methods: READ,
  served: 'gateway',
  parameters: listParameters,
  budgets: ['computed'],
  each,
  operations: (value, model) => {
    const collection = collectionOf(value, model)
    const name = recordSchemaName(collection)
    return {
      get: {
        operationId: `preview${name}s`,
        tags: [TAG, tagOf(value)],
        summary: `Preview ${collection.label}s, drafts and scheduled ones included`,
        description: `The list \`/api/${value}\` answers, with the same parameters and renderer, over every valid ${collection.label}: drafts, scheduled and expired ones too, each with its \`state\`. ${SECURITY_NOTE}`,
        security: PREVIEW_READ,
        responses: {
          '200': {
            description: `A page of ${collection.label}s (list form, each with \`state\` and \`release_at\`).`,
            headers: HEADERS,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['data', 'meta', 'links'],
                  properties: {
                    data: { type: 'array', maxItems: MAX_LIMIT, items: previewRecord(`${name}List`) },
                    meta: schemaRef('ListMeta'),
                    links: schemaRef('ListLinks'),
                  },
                },
              },
            },
          },
          ...problems(400, 401, 403, 406, 500, 503),
        },
      },
    }
  },
})

export const previewItem = route({
  path: `${PREVIEW_API_PATH}/{collection}/{slug}`,
  methods: READ,
  served: 'gateway',
  parameters: itemParameters,
  budgets: ['computed'],
  each,
  operations: (value, model) => {
    const collection = collectionOf(value, model)
    const name = recordSchemaName(collection)
    return {
      get: {
        operationId: `preview${name}`,
        tags: [TAG, tagOf(value)],
        summary: `Preview a ${collection.label}, draft or scheduled`,
        description: `The item \`/api/${value}/{slug}\` answers, with its \`state\` and \`release_at\`, whatever its state. ${SECURITY_NOTE}`,
        security: PREVIEW_READ,
        responses: {
          '200': {
            description: `The ${collection.label} with \`state\` and \`release_at\`.`,
            headers: HEADERS,
            content: { 'application/json': { schema: previewRecord(name) } },
          },
          ...problems(400, 401, 403, 404, 406, 500, 503),
        },
      },
    }
  },
})

export const previewSearch = route({
  path: `${PREVIEW_API_PATH}/search`,
  methods: READ,
  served: 'gateway',
  parameters: search.parameters as (model: ContentModel) => readonly Parameter[],
  budgets: ['computed'],
  operations: {
    get: {
      operationId: 'previewSearch',
      tags: [TAG],
      summary: 'Search every item, drafts and scheduled ones included',
      description: `\`/api/search\`'s parameters over every valid item; each hit has its \`state\` and \`release_at\`, and its \`href\` is the preview item's. ${SECURITY_NOTE}`,
      security: PREVIEW_READ,
      responses: {
        '200': {
          description: 'Hits, best first.',
          headers: HEADERS,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['data', 'meta', 'links'],
                properties: {
                  data: { type: 'array', maxItems: MAX_LIMIT, items: previewRecord('SearchResults') },
                  meta: { type: 'object', description: "As `components/schemas/SearchResults`' meta." },
                  links: schemaRef('ListLinks'),
                },
              },
            },
          },
        },
        ...problems(400, 401, 403, 406, 500, 503),
      },
    },
  },
})

/** The token of a share link, as `npm run keys -- preview-link` prints it. */
const TOKEN: Parameter = {
  name: 'token',
  in: 'path',
  required: true,
  schema: text(100, { pattern: '^[A-Za-z0-9_-]+$' }),
}

export const review = route({
  path: `${REVIEW_PREFIX}/{token}`,
  methods: READ,
  served: 'gateway',
  parameters: [TOKEN],
  budgets: ['computed'],
  undocumented: 'a share link: a read-only page of one item for a reviewer in a browser, not an API',
})

/**
 * A share link for one item, made by the editor's button with a preview
 * credential: what `npm run keys -- preview-link` makes, for whoever may read
 * the preview already. Under the item's own path, so no collection's name can
 * shadow it; computed per request, so it draws from the computed budget
 * (netlify.toml has no edge rule to spare for it).
 */
export const previewShareLink = route({
  path: `${PREVIEW_API_PATH}/{collection}/{slug}/share-links`,
  methods: ['POST'],
  served: 'gateway',
  budgets: ['computed'],
  body: { types: [JSON_MEDIA_TYPE], limit: 'TOKEN_MAX_BODY_BYTES' },
  undocumented: "the editor's Share preview link button: a share link for one item, for a holder of the preview scope",
})
