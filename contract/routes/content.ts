/**
 * The content of each collection — a list and an item, public reads — and
 * the gateway's health. Page 1 of every limit and every item are files of the
 * build; other list queries are computed by the gateway, from the same
 * build with the same renderer.
 */
import type { CollectionModel, ContentModel } from '../model/model.ts'
import { itemFile, listFile, localeItemFile, localeListFile, PRERENDERED_LIMITS } from '../paths.ts'
import { API_PREFIX, HEALTH_PATH, LIVENESS_PATH } from '../public-paths.ts'
import { collectionPath, fieldsOf, filtersOf, once, SLUG, sortOf } from './collection-parameters.ts'
import { ACCEPT_LANGUAGE, DEFAULT_LIMIT, IF_NONE_MATCH, LIMIT, LIST_FILTERS, LOCALE, PAGE } from './parameters.ts'
import {
  ANONYMOUS,
  CONTENT_HEADERS,
  CORS_HEADERS,
  LOCALE_HEADERS,
  NOT_MODIFIED,
  PAGE_HEADERS,
  problems,
  publicRead,
} from './responses.ts'
import { READ, route, type Operation, type Parameter } from './route.ts'
import { headerRef, schemaRef } from './schema.ts'
import { GONE, MOVED } from './taxonomy.ts'

/** `blog-posts` → `BlogPost`: the component name of a collection's record schema. */
export function recordSchemaName(collection: CollectionModel): string {
  return collection.type
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')
}

/** `blog-posts` → `Blog posts`: the document's tag of a collection. */
export const tagOf = (collection: string) => `${collection[0]!.toUpperCase()}${collection.slice(1).replace('-', ' ')}`

const each = { parameter: 'collection', values: (model: ContentModel) => model.names }
/** The collection a path of the route stands for (the document writes only the model's). */
const collectionOf = (value: string, model: ContentModel): CollectionModel | undefined =>
  Object.hasOwn(model.collections, value) ? model.collections[value] : undefined

/**
 * The parameters of a collection's list: the filters (those it refuses
 * too, which the document leaves out, and its fields'), its sort keys and
 * fields. Made once per model: the gateway reads every list request with them.
 */
export function listParameters(value: string, model: ContentModel): readonly Parameter[] {
  const collection = collectionOf(value, model)
  if (!collection) return []
  return once(model, `list ${value}`, () => [
    collectionPath(model),
    LIMIT,
    PAGE,
    ...filtersOf(model, collection),
    sortOf(model, collection),
    fieldsOf(model, collection, 'summary'),
    LOCALE,
    IF_NONE_MATCH,
    ACCEPT_LANGUAGE,
  ])
}

export function itemParameters(value: string, model: ContentModel): readonly Parameter[] {
  const collection = collectionOf(value, model)
  if (!collection) return []
  return once(model, `item ${value}`, () => [
    collectionPath(model),
    SLUG,
    fieldsOf(model, collection, 'full'),
    LOCALE,
    IF_NONE_MATCH,
    ACCEPT_LANGUAGE,
  ])
}

export const list = route({
  path: `${API_PREFIX}/{collection}`,
  methods: READ,
  served: 'gateway',
  parameters: listParameters,
  budgets: ['computed'],
  prerendered: {
    computedBy: ['page', ...LIST_FILTERS.map((p) => p.name), 'sort', 'fields'],
    fileParameter: { name: 'limit', values: PRERENDERED_LIMITS.map(String), bare: String(DEFAULT_LIMIT) },
    file: (path, limit = String(DEFAULT_LIMIT)) => listFile(path.collection!, Number(limit)),
    locale: {
      name: 'locale',
      localeFile: (path, locale, limit = String(DEFAULT_LIMIT)) =>
        localeListFile(path.collection!, locale, Number(limit)),
    },
  },
  each,
  operations: (value, model) => {
    const collection = collectionOf(value, model)!
    const { label, sortField } = collection
    const name = recordSchemaName(collection)
    return {
      get: {
        operationId: `list${name}s`,
        tags: [tagOf(value)],
        summary: `List ${label}s`,
        description:
          `Published ${label}s, newest first by \`${sortField}\`, ${DEFAULT_LIMIT} a page unless \`limit\` says otherwise. ` +
          'Page 1 of every limit is a pre-rendered file on the CDN; other pages, the filters, `sort` and `fields` are rendered by the gateway with the same renderer, so the same request gives the same bytes either way. ' +
          'Filters combine (all must hold); `meta.total`, `X-Total-Count` and the `Link` header count what they keep, and the links carry them. ' +
          'Unknown query parameters are ignored; a credential is never needed and never changes the answer.',
        security: publicRead(collection),
        responses: {
          '200': {
            description: `A page of ${label}s (list form, no body; with \`fields\`, only those fields).`,
            headers: { ...PAGE_HEADERS, ...LOCALE_HEADERS },
            content: { 'application/json': { schema: schemaRef(`${name}List`) } },
          },
          '304': NOT_MODIFIED,
          ...problems(400, 406, 500, 503),
        },
      },
    }
  },
})

export const item = route({
  path: `${API_PREFIX}/{collection}/{slug}`,
  methods: READ,
  served: 'gateway',
  parameters: itemParameters,
  // A sparse item is computed; the whole one is a file.
  budgets: ['computed'],
  prerendered: {
    computedBy: ['fields'],
    file: (path) => itemFile(path.collection!, path.slug!),
    // The slug is the translation's own (the rules resolve a request's slug to it, as the gateway does).
    locale: { name: 'locale', localeFile: (path, locale) => localeItemFile(path.collection!, locale, path.slug!) },
  },
  each,
  operations: (value, model) => {
    const collection = collectionOf(value, model)!
    const { label } = collection
    const name = recordSchemaName(collection)
    return {
      get: {
        operationId: `get${name}`,
        tags: [tagOf(value)],
        summary: `Get a ${label}`,
        description: `The full ${label}: every field of the list form plus \`body\` as HTML, Markdown and text (with \`fields\`, only those). The whole item is a pre-rendered file; \`fields\` is rendered by the gateway. An old address of an item (a renamed file, a changed slug) answers 301 to where it is now; a deleted item's, 410.`,
        security: publicRead(collection),
        responses: {
          '200': {
            description: `The ${label} (with \`fields\`, only those fields).`,
            headers: { ...CONTENT_HEADERS, ...LOCALE_HEADERS },
            content: { 'application/json': { schema: { anyOf: [schemaRef(name), schemaRef(`${name}Sparse`)] } } },
          },
          '301': MOVED,
          '304': NOT_MODIFIED,
          ...problems(400, 404, 406),
          '410': GONE,
          ...problems(500, 503),
        },
      },
    }
  },
})

const healthGet: Operation = {
  operationId: 'getHealth',
  tags: ['Operations'],
  summary: 'Health of the gateway and the build it serves',
  description:
    'Readiness. Never cached. 503 when the built artifacts are missing or unreadable, or when the state store (Redis) cannot be reached: a load balancer then sends this gateway no traffic; the pre-rendered files it serves never need the store.',
  security: ANONYMOUS,
  responses: {
    '200': {
      description: 'Serving a build.',
      headers: {
        'Cache-Control': headerRef('Cache-Control'),
        'X-Request-Id': headerRef('X-Request-Id'),
        ...CORS_HEADERS,
      },
      content: { 'application/json': { schema: schemaRef('Health') } },
    },
    ...problems(400, 500, 503),
  },
}

export const health = route({
  path: HEALTH_PATH,
  methods: READ,
  served: 'gateway',
  operations: { get: healthGet, head: { ...healthGet, operationId: 'headHealth', summary: 'Health, headers only' } },
})

const livenessGet: Operation = {
  operationId: 'getLiveness',
  tags: ['Operations'],
  summary: 'Liveness of the gateway process',
  description:
    'Never cached. 200 while the process answers, whatever its build or its state store: a container restarted for a Redis outage would not bring Redis back. Readiness is `/api/health`.',
  security: ANONYMOUS,
  responses: {
    '200': {
      description: 'The process answers.',
      headers: {
        'Cache-Control': headerRef('Cache-Control'),
        'X-Request-Id': headerRef('X-Request-Id'),
        ...CORS_HEADERS,
      },
      content: { 'application/json': { schema: schemaRef('Liveness') } },
    },
    ...problems(400, 500),
  },
}

export const liveness = route({
  path: LIVENESS_PATH,
  methods: READ,
  served: 'gateway',
  operations: {
    get: livenessGet,
    head: { ...livenessGet, operationId: 'headLiveness', summary: 'Liveness, headers only' },
  },
})
