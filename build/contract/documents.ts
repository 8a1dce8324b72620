/**
 * How the build's documents are served: media types of extension-less
 * documents and the extra headers some carry. The gateway's static route and
 * the Netlify `_headers` file both read this, so the CDN and the gateway agree.
 */
import { API_CATALOG_PATH, AUTHORIZATION_SERVER_PATH, MCP_PATH, PROTECTED_RESOURCE_PATH } from './public-paths.ts'

/** The RFC 9727 API catalog's media type and self link. */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727'
export const API_CATALOG_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`
export const API_CATALOG_LINK = `<${API_CATALOG_PATH}>; rel="api-catalog"`

const JSON_DOCUMENT = 'application/json; charset=utf-8'

/** Media types of extension-less documents, by path. */
export const DOCUMENT_TYPES: Record<string, string> = {
  [API_CATALOG_PATH]: API_CATALOG_TYPE,
  [AUTHORIZATION_SERVER_PATH]: JSON_DOCUMENT,
  [PROTECTED_RESOURCE_PATH]: JSON_DOCUMENT,
  [`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`]: JSON_DOCUMENT,
}

/** Extra headers of documents, by path (RFC 9727: the catalog links to itself). */
export const DOCUMENT_HEADERS: Record<string, Record<string, string>> = {
  [API_CATALOG_PATH]: { link: API_CATALOG_LINK },
}
