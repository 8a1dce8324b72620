/**
 * The API's lifecycle in one place: its version (semver; the OpenAPI
 * document, /api/health, the MCP server, llms.txt and the `API-Version`
 * header of every answer all read it here), the policy integrators can rely
 * on, and where the changelog, the deprecation notices and the generated
 * client types are published.
 *
 * Raise the version with `npm run api:release` (docs/api-lifecycle.md): a
 * breaking change needs a new major version, and the build's gate
 * (`npm run api:check`) fails on one until then.
 */

/** The API contract's version, not the package's: semver, raised by `npm run api:release`. */
export const API_VERSION = '1.0.0'

/** Sent with every answer, by the gateway and (through `_headers`) the CDN. */
export const API_VERSION_HEADER = 'API-Version'

/** The least time between a deprecation and the sunset of what it marks, in days. */
export const MIN_DEPRECATION_DAYS = 180

/** The API changelog as a page (with the deprecation notices) and as JSON, and the generated client types. */
export const CHANGELOG_PAGE_PATH = '/docs/changelog.html'
export const CHANGELOG_JSON_PATH = '/docs/changelog.json'
export const CLIENT_TYPES_PATH = '/docs/content-api.d.ts'
/** Where every `Link: <…>; rel="deprecation"` points: the list of current deprecations. */
export const DEPRECATIONS_NOTICE = `${CHANGELOG_PAGE_PATH}#deprecations`

/** The major version of a semver string (`2.1.0` → 2). */
export function majorOf(version: string): number {
  const match = /^(\d+)\.\d+\.\d+(?:[-+].*)?$/.exec(version)
  if (!match) throw new Error(`not a semver version: ${version}`)
  return Number(match[1])
}

/**
 * The versioning policy, in Markdown: what counts as breaking, how long a
 * deprecated thing lives, how clients are told. The OpenAPI description and
 * the changelog page both carry it.
 */
export function versionPolicy(): string {
  return `## Versions and deprecations

This API is version **${API_VERSION}** ([semver](https://semver.org/)). Every answer carries it in the \`${API_VERSION_HEADER}\` header; \`/api/health\`, this document's \`info.version\` and the MCP server say the same. There is one version at a time, served at the same paths: no version in the URL.

- **Breaking changes** raise the major version: removing or renaming an operation, a parameter, a response field or an enum value; making a parameter required or narrowing what it accepts (a lower maximum, a stricter pattern, fewer values); adding a required request field; changing a field's type; answering with a value the response schema did not allow before (a longer string, a new enum value, \`null\`). A build whose description breaks the last released one fails unless the major version was raised.
- **Additions** raise the minor version: new operations, optional parameters, response fields, enum values of requests. Clients must ignore response fields they do not know.
- **Deprecation comes first.** What is to go is marked deprecated for at least ${MIN_DEPRECATION_DAYS} days before its sunset: \`deprecated: true\` and a note naming the date and the replacement in this document, and on every answer that uses it the headers \`Deprecation\` (RFC 9745, \`@<epoch seconds>\`), \`Sunset\` (RFC 8594, the HTTP-date after which it may go) and \`Link: <${DEPRECATIONS_NOTICE}>; rel="deprecation"\`. A deprecated thing keeps working until its sunset and leaves only with a major version.
- **The changelog** lists what each version added, deprecated and removed: [${CHANGELOG_PAGE_PATH}](${CHANGELOG_PAGE_PATH}) and [${CHANGELOG_JSON_PATH}](${CHANGELOG_JSON_PATH}). TypeScript types of every operation and record, generated from this document: [${CLIENT_TYPES_PATH}](${CLIENT_TYPES_PATH}).
`
}
