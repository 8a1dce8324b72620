/** The REST operations of each collection: a list and an item, both public reads. */
import { COLLECTIONS, COLLECTION_NAMES, type CollectionName } from '../../contract/collections.ts'
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../contract/query.ts'
import { arrayOf } from './bounded.ts'
import { CORS_HEADERS, headerRef, parameterRef, problemResponseName, responseRef, schemaRef } from './components.ts'
import { recordSchemaName } from './records.ts'
import { publicReadSecurity } from './security.ts'

type Json = Record<string, unknown>

export const tagOf = (collection: CollectionName) =>
  `${collection[0]!.toUpperCase()}${collection.slice(1).replace('-', ' ')}`

const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), responseRef(problemResponseName(s))]))

const contentHeaders = {
  ETag: headerRef('ETag'),
  'Cache-Control': headerRef('Cache-Control'),
  'X-Request-Id': headerRef('X-Request-Id'),
  ...CORS_HEADERS,
}

function listOperation(collection: CollectionName): Json {
  const { label, sortField } = COLLECTIONS[collection]
  const name = recordSchemaName(collection)
  return {
    operationId: `list${name}s`,
    tags: [tagOf(collection)],
    summary: `List ${label}s`,
    description:
      `Published ${label}s, newest first by \`${sortField}\`, ${DEFAULT_LIMIT} a page unless \`limit\` says otherwise. ` +
      'Page 1 of every limit is a pre-rendered file on the CDN; other pages and the `tag` and `updated_since` filters are rendered by the gateway with the same renderer. ' +
      'Unknown query parameters are ignored; a credential is never needed and never changes the answer.',
    security: publicReadSecurity(collection),
    parameters: ['limit', 'page', 'tag', 'updatedSince', 'ifNoneMatch'].map(parameterRef),
    responses: {
      '200': {
        description: `A page of ${label}s (list form, no body).`,
        headers: { ...contentHeaders, 'X-Total-Count': headerRef('X-Total-Count'), Link: headerRef('Link') },
        content: { 'application/json': { schema: schemaRef(`${name}List`) } },
      },
      '304': responseRef('NotModified'),
      ...problems(400, 406, 500, 503),
    },
  }
}

function itemOperation(collection: CollectionName): Json {
  const { label } = COLLECTIONS[collection]
  const name = recordSchemaName(collection)
  return {
    operationId: `get${name}`,
    tags: [tagOf(collection)],
    summary: `Get a ${label}`,
    description: `The full ${label}: every field of the list form plus \`body\` as HTML, Markdown and text.`,
    security: publicReadSecurity(collection),
    parameters: ['slug', 'ifNoneMatch'].map(parameterRef),
    responses: {
      '200': {
        description: `The ${label}.`,
        headers: contentHeaders,
        content: { 'application/json': { schema: schemaRef(name) } },
      },
      '304': responseRef('NotModified'),
      ...problems(400, 404, 406, 500, 503),
    },
  }
}

/** The list envelope schema of a collection. */
export function listSchema(collection: CollectionName): Json {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['data', 'meta', 'links'],
    description: `A page of ${COLLECTIONS[collection].label}s with pagination.`,
    properties: {
      data: arrayOf(schemaRef(`${recordSchemaName(collection)}Summary`), MAX_LIMIT),
      meta: schemaRef('ListMeta'),
      links: schemaRef('ListLinks'),
    },
  }
}

export function contentPaths(): Record<string, Json> {
  const paths: Record<string, Json> = {}
  for (const collection of COLLECTION_NAMES) {
    paths[`/api/${collection}`] = { get: listOperation(collection) }
    paths[`/api/${collection}/{slug}`] = { get: itemOperation(collection) }
  }
  return paths
}

export { problems, contentHeaders }
