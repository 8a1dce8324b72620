/**
 * /.well-known/api-catalog (RFC 9727): an RFC 9264 linkset naming this
 * API's entry points, each with its description (service-desc), reference
 * (service-doc) and status. Served as application/linkset+json with the
 * RFC 9727 profile (gateway/routes/static.ts).
 */
import { COLLECTION_NAMES } from '../collections.ts'
import { API_CATALOG_PATH } from '../openapi/paths-discovery.ts'
import type { Emitter } from './types.ts'

export const API_CATALOG_FILE = API_CATALOG_PATH.slice(1)

const describedBy = {
  'service-desc': [{ href: '/openapi.json', type: 'application/vnd.oai.openapi+json;version=3.1' }],
  'service-doc': [{ href: '/docs/', type: 'text/html' }, { href: '/llms-full.txt', type: 'text/plain' }],
  status: [{ href: '/api/health', type: 'application/json' }],
}

export const emitApiCatalog: Emitter = () => {
  const apis = [...COLLECTION_NAMES.map((c) => `/api/${c}`), '/mcp']
  const linkset = [
    { anchor: API_CATALOG_PATH, item: apis.map((href) => ({ href })) },
    ...apis.map((anchor) => ({ anchor, ...describedBy })),
  ]
  return { [API_CATALOG_FILE]: `${JSON.stringify({ linkset }, null, 2)}\n` }
}
