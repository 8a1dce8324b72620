/**
 * llms.txt (an llmstxt.org index: H1, summary blockquote, sections of links)
 * and llms-full.txt (the agent reference, then every published item as
 * Markdown with its source URL).
 */
import type { ImageObject, SocialImage } from '../../contract/media.ts'
import { datedCollections, type CollectionModel, type ContentModel } from '../../contract/model/model.ts'
import type { FullRecord } from '../../contract/records.ts'
import { agentReference } from '../openapi/agent-reference.ts'
import { createOpenApiDocument, type OpenApiDocument } from '../openapi/document.ts'
import {
  ALL_FEED,
  API_CATALOG_PATH,
  calendarPath,
  CHANGES_PATH,
  feedPath,
  LLMS_FULL_PATH,
  localeLlmsFullPath,
  LLMS_PATH,
  PEOPLE_PATH,
  REDIRECTS_PATH,
  SEARCH_PATH,
  SITEMAP_PATH,
  TAGS_PATH,
} from '../../contract/public-paths.ts'
import { parametersOf, ROUTES } from '../../contract/routes/index.ts'
import { MAX_LIMIT } from '../../contract/routes/parameters.ts'
import type { Parameter } from '../../contract/routes/route.ts'
import type { BuiltContent, EmittedFiles, Emitter } from './types.ts'
import { API_VERSION, CHANGELOG_PAGE_PATH } from '../../contract/lifecycle.ts'
import { readableMarkdown } from '../../contract/readable-markdown.ts'

const LLMS_FILE = LLMS_PATH.slice(1)
const LLMS_FULL_FILE = LLMS_FULL_PATH.slice(1)
/** Items per collection listed in llms.txt; the rest are a list request away. */
const LATEST_PER_COLLECTION = 10

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

/** A route's query parameters as the route table declares them: bounds of a ranged one, "required" where it is. */
function queryParameters(parameters: readonly Parameter[]): string {
  return parameters
    .filter((p) => p.in === 'query' && !p.refused)
    .map((p) => {
      const { minimum, maximum } = p.schema as { minimum?: number; maximum?: number }
      const range = minimum !== undefined && maximum !== undefined ? ` ${minimum}..${maximum}` : ''
      return `\`${p.name}\`${range}${p.required ? ' required' : ''}`
    })
    .join(', ')
}

/** The query parameters of a collection's list. */
const listParameters = (model: ContentModel, collection: string) =>
  queryParameters(parametersOf(ROUTES.list, model, collection))

function index(content: BuiltContent, doc: OpenApiDocument): string {
  const { title, summary } = doc.info as { title: string; summary: string }
  const { site } = content
  const { model } = site
  const collections = model.names.map((c) => {
    const n = content.collections[c]!.length
    return `- [${site.collections[c]!.title}](/api/${c}?limit=${MAX_LIMIT}): ${n} published ${n === 1 ? site.collections[c]!.label : c.replace('-', ' ')}, newest first (JSON; ${listParameters(model, c)}: see Queries in the full reference)`
  })
  const latest = model.names.flatMap((c) =>
    content.collections[c]!.slice(0, LATEST_PER_COLLECTION).map(
      (r) => `- [${oneLine(r.title)}](/api/${c}/${r.slug}): ${oneLine(String(r.summary ?? ''))}`,
    ),
  )
  return `# ${title}

> ${oneLine(`${summary} ${site.description}`)}

API version ${API_VERSION} (semver; every answer carries it in the \`API-Version\` header; deprecations and changes: [changelog](${CHANGELOG_PAGE_PATH})). Public reads need no credential. Agents connect to the MCP endpoint \`POST /mcp\` with an OAuth token (scope \`mcp.tools.invoke\`) or an \`agent.mcp\` API key. Errors are RFC 9457 problem+json.

## Docs

- [Full reference for agents](/llms-full.txt): endpoints, credentials, MCP tools, errors, then all published content as Markdown
${Object.keys(content.locales ?? {})
  .map(
    (l) =>
      `- [Full reference for agents, content in ${l}](${localeLlmsFullPath(l)}): the same, with the content published in ${l}\n`,
  )
  .join('')}- [OpenAPI 3.1 description](/openapi.json): the machine-readable contract
- [API reference](/docs/): for people, with a quick start and the sandbox key
- [API catalog](${API_CATALOG_PATH}): RFC 9727 linkset of this API

## API

${collections.join('\n')}
- [Search](${SEARCH_PATH}?q=data+contracts): ranked full-text search across all collections with a score and snippet per hit (${queryParameters(parametersOf(ROUTES.search, model))})
- [Change feed](${CHANGES_PATH}): every published item once and a \`next_cursor\`; \`?since=<cursor>\` gives only what changed after it, deletions as tombstones
- [Tags](${TAGS_PATH}): every tag with its label and item counts per collection; \`/api/tags/{tag}\` lists a tag's items across collections
- [People](${PEOPLE_PATH}): every author and speaker with their counts; \`/api/people/{slug}\` gives the profile and their items
- [Redirects](${REDIRECTS_PATH}): every old page address of an item (from the content's git history and \`aliases\`) with where it leads (301) or that it is gone (410)
- [Sitemap](${SITEMAP_PATH}): the marketing site's canonical pages (sitemaps.org), with hreflang alternates
- [Health](/api/health): status and the build being served

## Feeds and calendars

- [Everything, Atom](${feedPath(ALL_FEED, 'atom')}): also [RSS](${feedPath(ALL_FEED, 'rss')}) and [JSON Feed](${feedPath(ALL_FEED, 'json')}); per collection at \`/feeds/{collection}.{xml,atom,json}\`
${calendarsLine(model)}

## Optional

${latest.join('\n')}
`
}

/** The calendars of the dated collections: `[Events calendar](…) and [webinars calendar](…)`. */
function calendarsLine(model: ContentModel): string {
  const links = datedCollections(model).map(
    (c, i) =>
      `[${i ? model.collections[c]!.title.toLowerCase() : model.collections[c]!.title} calendar](${calendarPath(c)})`,
  )
  if (!links.length) return ''
  return `- ${links.length < 2 ? links[0] : `${links.slice(0, -1).join(', ')} and ${links.at(-1)}`}: iCalendar; one item at \`/calendar/{collection}/{slug}.ics\``
}

function metadataLines(collection: CollectionModel, record: FullRecord, language: string): string[] {
  const lines = [
    `Source: ${record.url}`,
    // A translation's record is read with its locale (a multilingual site's default ones without).
    `API: /api/${collection.name}/${record.slug}${record.locale !== undefined && record.locale !== language ? `?locale=${record.locale}` : ''}`,
    `Published: ${record.published_at}; updated: ${record.updated_at}`,
  ]
  if (record.tags.length) lines.push(`Tags: ${record.tags.join(', ')}`)
  for (const [field, spec] of Object.entries(collection.fields)) {
    // Markdown as written: the reader of this file reads Markdown.
    const value = spec.type === 'markdown' ? (record[field] as { markdown: string } | null)?.markdown : record[field]
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue
    // A portrait's image object is for pages; its URL stays (avatar_url).
    lines.push(
      `${field}: ${typeof value === 'string' || typeof value === 'number' ? value : JSON.stringify(value, (k, v) => (k === 'avatar' ? undefined : v))}`,
    )
  }
  return [...lines, ...openGraph(collection, record)]
}

/** The item's Open Graph data, as a page about it would carry: what a link to it shows when shared. */
function openGraph(collection: CollectionModel, record: FullRecord): string[] {
  const image = record.social_image as SocialImage | null
  const alt = (record.image as ImageObject | null)?.alt
  const lines = [
    // An item that happens at a time (an event) is no article: Open Graph has no type for it but the default.
    `og:type: ${collection.dated ? 'website' : 'article'}`,
    `og:title: ${oneLine(record.title)}`,
    `og:url: ${record.url}`,
  ]
  if (record.summary) lines.push(`og:description: ${oneLine(String(record.summary))}`)
  if (image) {
    lines.push(`og:image: ${image.url}`)
    if (image.width !== null) lines.push(`og:image:width: ${image.width}`, `og:image:height: ${image.height}`)
    lines.push(`og:image:alt: ${oneLine(alt ?? record.title)}`)
  }
  return lines
}

/** Rendered items by record: the watch mode keeps unchanged records, so only edited ones are re-rendered. */
const rendered = new WeakMap<FullRecord, string>()

/** `language`: the site's default locale (a record's objects are new whenever site.yaml changes). */
function item(collection: CollectionModel, record: FullRecord, language: string): string {
  let text = rendered.get(record)
  if (text === undefined) {
    text = renderItem(collection, record, language)
    rendered.set(record, text)
  }
  return text
}

function renderItem(collection: CollectionModel, record: FullRecord, language: string): string {
  return `---

### ${oneLine(record.title)}

${metadataLines(collection, record, language).join('\n')}

${readableMarkdown(record.body.markdown)}
`
}

function full(content: BuiltContent, doc: OpenApiDocument, collections = content.collections, locale?: string): string {
  const parts = [
    agentReference(doc, content.site.model),
    locale
      ? `\n# Published content (${locale})\n\nEvery item published in ${locale}${content.locales?.[locale]?.fallback ? ` (and, where it has no ${locale} translation, in ${content.site.language})` : ''}, newest first per collection, as Markdown. \`Source\` is the canonical page, \`API\` the JSON record.\n`
      : '\n# Published content\n\nEvery published item, newest first per collection, as Markdown. `Source` is the canonical page, `API` the JSON record.\n',
  ]
  for (const c of content.site.model.names) {
    const collection = content.site.collections[c]!
    parts.push(`\n## ${collection.title} (${c})\n\n`)
    for (const record of collections[c]!) parts.push(item(collection, record, content.site.language), '\n')
  }
  return parts.join('')
}

export const emitLlms = {
  name: 'llms',
  input: 'content',
  emit(content) {
    const doc = createOpenApiDocument(content.site)
    const files: EmittedFiles = { [LLMS_FILE]: index(content, doc), [LLMS_FULL_FILE]: full(content, doc) }
    for (const [locale, view] of Object.entries(content.locales ?? {}))
      files[localeLlmsFullPath(locale).slice(1)] = full(content, doc, view.collections, locale)
    return files
  },
} satisfies Emitter
