/** The RFC 9727 API catalog's location, media type and self link, shared by the build and the gateway. */
export const API_CATALOG_PATH = '/.well-known/api-catalog'
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727'
export const API_CATALOG_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`
export const API_CATALOG_LINK = `<${API_CATALOG_PATH}>; rel="api-catalog"`
