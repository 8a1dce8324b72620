/** list_content: one collection, newest first, with REST's limit/page/tag rules and envelope. */
import { z } from 'zod'
import { COLLECTIONS } from '../../../contract/collections.ts'
import { DEFAULT_LIMIT, MAX_LIMIT, parseListQuery } from '../../../contract/query.ts'
import { listEnvelope } from '../../../contract/render.ts'
import type { McpContext } from '../context.ts'
import { summariesIn, toolLocale } from '../../content/locales.ts'
import {
  collectionArg,
  limitArg,
  localeArg,
  pageArg,
  READ_ONLY,
  recordSummary,
  tagArg,
  toolError,
  toolResult,
} from '../schemas.ts'

/** The tool's description and schemas, made once: every request builds a new server that registers it. */
const LIST_CONTENT_TOOL = {
  title: 'List a collection',
  description:
    'List the published items of one collection (blog-posts, case-studies, webinars or events), newest first ' +
    '(blog posts and case studies by published_at, webinars and events by starts_at), optionally only those with ' +
    'a tag. Use it to browse, to find valid slugs, or to answer "what are our latest …". Returns the same list ' +
    'envelope as GET /api/{collection}: data (summary records without body: slug, title, summary, url, tags, dates ' +
    "and the collection's own fields), meta (limit, page, count, total, pages) and links (REST URLs of this, the " +
    'next and the previous page). Use get_content with a slug to read one item in full.',
  inputSchema: z.object({
    collection: collectionArg.describe('Which collection to list.'),
    limit: limitArg.default(DEFAULT_LIMIT).describe(`Items per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`),
    page: pageArg.default(1).describe('Page number, starting at 1.'),
    tag: tagArg.optional().describe('Only items with this tag, e.g. "data-contracts".'),
    locale: localeArg.optional(),
  }),
  outputSchema: z.object({
    collection: collectionArg,
    data: z.array(recordSummary),
    meta: z.object({
      limit: z.number().int(),
      page: z.number().int(),
      count: z.number().int(),
      total: z.number().int(),
      pages: z.number().int(),
    }),
    links: z.object({ self: z.string(), next: z.string().nullable(), prev: z.string().nullable() }),
  }),
  annotations: { title: 'List a collection', ...READ_ONLY },
}

export function registerListContent({ server, snapshot }: McpContext): void {
  server.registerTool('list_content', LIST_CONTENT_TOOL, ({ collection, limit, page, tag, locale: given }) => {
    const chosen = toolLocale(snapshot, given)
    if (!chosen.ok) return toolError(chosen.message)
    const { locale } = chosen
    // REST's own parser, so a tool call and a REST call accept exactly the same options.
    const params = new URLSearchParams({ limit: String(limit), page: String(page) })
    if (tag !== undefined) params.set('tag', tag)
    const parsed = parseListQuery(params)
    if (!parsed.ok) return toolError(parsed.errors.map((e) => `${e.parameter} ${e.message}`).join('; '))
    const query = locale ? { ...parsed.query, locale } : parsed.query
    const envelope = listEnvelope(collection, summariesIn(snapshot, collection, locale), query)
    const { meta } = envelope
    const label = COLLECTIONS[collection].label
    const lines = envelope.data.map(
      (r, i) => `${(meta.page - 1) * meta.limit + i + 1}. ${r.title} (slug "${r.slug}", ${dateOf(r)})`,
    )
    const heading =
      meta.total === 0
        ? `No ${label} items${tag ? ` with the tag "${tag}"` : ''}.`
        : meta.count === 0
          ? `Page ${meta.page} is past the end: ${meta.total} ${label} item(s) fill ${meta.pages} page(s).`
          : `${collection}${tag ? ` tagged "${tag}"` : ''}: items ${(meta.page - 1) * meta.limit + 1}–${(meta.page - 1) * meta.limit + meta.count} of ${meta.total} (page ${meta.page} of ${meta.pages}).`
    return toolResult({ collection, ...envelope }, [heading, ...lines].join('\n'))
  })
}

function dateOf(record: Record<string, unknown>): string {
  return typeof record.starts_at === 'string'
    ? `starts ${record.starts_at}`
    : `published ${String(record.published_at).slice(0, 10)}`
}
