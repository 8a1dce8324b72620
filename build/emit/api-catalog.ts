/**
 * /.well-known/api-catalog (RFC 9727): an RFC 9264 linkset naming this
 * API's entry points, each with its description (service-desc), reference
 * (service-doc) and status, and the feeds, calendars and sitemap as alternates. Served as application/linkset+json with the
 * RFC 9727 profile (contract/documents.ts).
 */
import { datedCollections } from '../../contract/model/model.ts'
import { FEED_TYPES } from '../../contract/documents.ts'
import {
  ALL_FEED,
  API_CATALOG_PATH,
  API_PREFIX,
  calendarPath,
  CHANGES_PATH,
  DOCS_PATH,
  FEED_EXTENSIONS,
  feedPath,
  HEALTH_PATH,
  LLMS_FULL_PATH,
  MCP_PATH,
  OPENAPI_PATH,
  PEOPLE_PATH,
  SEARCH_PATH,
  SITEMAP_PATH,
  TAGS_PATH,
  type FeedFormat,
} from '../../contract/public-paths.ts'
import type { Emitter } from './types.ts'

const API_CATALOG_FILE = API_CATALOG_PATH.slice(1)

const describedBy = {
  'service-desc': [{ href: OPENAPI_PATH, type: 'application/vnd.oai.openapi+json;version=3.1' }],
  'service-doc': [
    { href: DOCS_PATH, type: 'text/html' },
    { href: LLMS_FULL_PATH, type: 'text/plain' },
  ],
  status: [{ href: HEALTH_PATH, type: 'application/json' }],
}

export const emitApiCatalog = {
  name: 'api-catalog',
  input: 'site',
  emit: ({ site }) => {
    const apis = [
      ...site.model.names.map((c) => `${API_PREFIX}/${c}`),
      SEARCH_PATH,
      CHANGES_PATH,
      TAGS_PATH,
      PEOPLE_PATH,
      MCP_PATH,
    ]
    // The same content as feeds, calendars and the sitemap (its pages on the marketing site): alternate representations, not APIs.
    const alternate = [
      ...(Object.keys(FEED_EXTENSIONS) as FeedFormat[]).map((f) => ({
        href: feedPath(ALL_FEED, f),
        type: FEED_TYPES[f].split(';')[0]!,
      })),
      ...datedCollections(site.model).map((c) => ({ href: calendarPath(c), type: 'text/calendar' })),
      { href: SITEMAP_PATH, type: 'application/xml' },
    ]
    const linkset = [
      { anchor: API_CATALOG_PATH, item: apis.map((href) => ({ href })), alternate },
      ...apis.map((anchor) => ({ anchor, ...describedBy })),
    ]
    return { [API_CATALOG_FILE]: `${JSON.stringify({ linkset }, null, 2)}\n` }
  },
} satisfies Emitter
