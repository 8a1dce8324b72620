/**
 * The OpenAPI 3.1 document of the API, assembled from the route table
 * (contract/routes/: every path and operation), the content model's
 * collections and their fields (records, scopes), the problem registry:
 * nothing in it is written twice.
 */
import { PREVIEW_TAG } from '../../contract/routes/preview.ts'
import type { SiteConfig } from '../core/site.ts'
import { BODY_NODE_SCHEMA } from './body-tree-schema.ts'
import { HEADERS, sharedResponses, sharedSchemas } from './components.ts'
import { apiDescription } from './guide.ts'
import { MEDIA_SCHEMAS } from './media.ts'
import { documentPaths } from './paths.ts'
import { searchChangesSchemas } from './search-changes-schemas.ts'
import { taxonomySchemas } from './taxonomy-schemas.ts'
import { peopleSchemas } from './people-schemas.ts'
import { PEOPLE_TAG } from '../../contract/routes/people.ts'
import { TAXONOMY_TAG } from '../../contract/routes/taxonomy.ts'
import { fullSchema, listSchema, sparseSchema, summarySchema } from './records.ts'
import type { SchemaObject } from '../../contract/routes/schema.ts'
import { securitySchemes } from './security.ts'
import { recordSchemaName, tagOf } from '../../contract/routes/content.ts'
import { LLMS_FULL_PATH } from '../../contract/public-paths.ts'
import { WEBHOOKS_TAG, webhooksSection } from './webhooks.ts'
import type { DeprecationNotice } from '../../contract/routes/deprecation.ts'
import { API_VERSION } from '../../contract/lifecycle.ts'
import { addLifecycle, deprecatedFieldsByPath } from './lifecycle.ts'

export type OpenApiDocument = Record<string, unknown> & {
  openapi: string
  paths: Record<string, Record<string, unknown>>
  components: Record<string, Record<string, unknown>>
}

const documentOfSite = new WeakMap<SiteConfig, OpenApiDocument>()

/**
 * The OpenAPI document of a site's settings, made once per settings: the
 * openapi, llms, lifecycle, manifest and Netlify emitters each read it (five
 * copies a build before). Shared: readers must not change it.
 */
export function createOpenApiDocument(site: SiteConfig): OpenApiDocument {
  let document = documentOfSite.get(site)
  if (!document) {
    document = buildOpenApiDocument(site)
    documentOfSite.set(site, document)
  }
  return document
}

function buildOpenApiDocument(site: SiteConfig): OpenApiDocument {
  const { model } = site
  const schemas: Record<string, unknown> = {
    ...sharedSchemas(model),
    BodyNode: BODY_NODE_SCHEMA,
    ...searchChangesSchemas(model),
    ...MEDIA_SCHEMAS,
    ...taxonomySchemas(model),
    ...peopleSchemas(model),
  }
  for (const name of model.names) {
    const collection = model.collections[name]!
    const schema = recordSchemaName(collection)
    schemas[schema] = fullSchema(collection, model)
    schemas[`${schema}Sparse`] = sparseSchema(schemas[schema] as SchemaObject)
    schemas[`${schema}Summary`] = summarySchema(collection, model)
    schemas[`${schema}SummarySparse`] = sparseSchema(schemas[`${schema}Summary`] as SchemaObject)
    schemas[`${schema}List`] = listSchema(collection)
  }
  const { paths, parameters } = documentPaths(model)
  // Only the problem responses some operation can give (a 431, say, comes from the HTTP parser, before any route).
  const used = JSON.stringify(paths)
  const responses = Object.fromEntries(
    Object.entries(sharedResponses()).filter(([name]) => used.includes(`"#/components/responses/${name}"`)),
  )
  const referenced = used + JSON.stringify(responses)
  const headers = Object.fromEntries(
    Object.entries(HEADERS).filter(([name]) => referenced.includes(`"#/components/headers/${name}"`)),
  )
  const document: OpenApiDocument = {
    openapi: '3.1.1',
    info: {
      title: `${site.name} Content API`,
      version: API_VERSION,
      summary: 'Published marketing content as JSON and as MCP tools for agents.',
      description: apiDescription(site),
      contact: { name: site.name, url: site.url },
    },
    // Public and production: the origin serving this document (a local `npm start` serves its own copy).
    servers: [
      {
        url: '/',
        description: 'Production: the gateway (or CDN) this document was fetched from.',
        'x-internal': false,
      },
    ],
    // The agent reference needs an absolute URL (OpenAPI's externalDocs.url), so only when the site names the API's own.
    ...(site.apiUrl && {
      externalDocs: {
        description: 'Full reference for agents, with all content',
        url: `${site.apiUrl}${LLMS_FULL_PATH}`,
      },
    }),
    tags: [
      ...model.names.map((c) => ({ name: tagOf(c), description: `Published ${c.replace('-', ' ')}.` })),
      {
        name: 'Search and changes',
        description: 'Ranked search across collections, and the change feed for keeping a copy in sync.',
      },
      {
        name: TAXONOMY_TAG,
        description:
          "Tags across collections, the redirects of items' old addresses (from the content's git history), and the marketing site's sitemap.",
      },
      { name: PEOPLE_TAG, description: 'Everyone who authors or speaks, with their profile and items.' },
      PREVIEW_TAG,
      {
        name: 'Feeds and calendars',
        description: 'RSS 2.0, Atom 1.0 and JSON Feed 1.1 feeds; iCalendar files of events and webinars.',
      },
      { name: 'Agents (MCP)', description: 'The Model Context Protocol endpoint.' },
      {
        name: 'Authorization',
        description:
          'The embedded authorization server (an OpenID Provider), on unless an external issuer is configured.',
      },
      { name: 'Discovery', description: 'Descriptions of this API for people, agents and tools.' },
      { name: 'Operations', description: 'Health.' },
      WEBHOOKS_TAG,
    ],
    paths,
    webhooks: webhooksSection(model),
    components: {
      schemas,
      responses,
      parameters,
      headers,
      securitySchemes: securitySchemes(model),
    },
  }
  addLifecycle(document)
  return document
}

const fieldsOfSite = new WeakMap<SiteConfig, Record<string, DeprecationNotice[]>>()

/** The deprecated fields each path's answers carry (for the manifest, so the gateway sends their headers); once per site settings. */
export function deprecatedFieldsOf(site: SiteConfig): Record<string, DeprecationNotice[]> {
  let fields = fieldsOfSite.get(site)
  if (!fields) {
    fields = deprecatedFieldsByPath(createOpenApiDocument(site))
    fieldsOfSite.set(site, fields)
  }
  return fields
}
