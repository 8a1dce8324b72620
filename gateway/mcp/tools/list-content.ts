/** list_content: one collection with REST's list options (filters, order, fields, pages) and envelope. */
import { z } from 'zod'
import { listed, type ContentModel } from '../../../contract/model/model.ts'
import { isFiltered } from '../../../contract/filters.ts'
import { DEFAULT_LIMIT, MAX_LIMIT, parseListQuery } from '../../../contract/query.ts'
import { listEnvelope } from '../../../contract/render.ts'
import type { McpContext } from '../context.ts'
import { summariesIn, toolLocale } from '../../content/locales.ts'
import {
  collectionArg,
  fieldList,
  FILTER_NAMES,
  filterArgs,
  limitArg,
  localeArg,
  pageArg,
  perModel,
  queryOf,
  READ_ONLY,
  toolError,
  toolResult,
} from '../schemas.ts'

/** The tool's description and schemas, made once per build: every request builds a new server that registers it. */
const listContentTool = perModel((model: ContentModel) => ({
  title: 'List a collection',
  description:
    `List the published items of one collection (${listed(model.names, 'or')}), newest first ` +
    '(blog posts and case studies by published_at, webinars and events by starts_at) unless sort says otherwise. ' +
    'Use it to browse, to find valid slugs, or to answer "the three newest posts by José", "upcoming webinars, ' +
    'soonest first" (when "upcoming", sort ["starts_at"]), "case studies tagged fintech or banking" (tag ' +
    '["fintech", "banking"]) or "posts from last quarter" (published_after, published_before). Filters combine. ' +
    'Returns the same list envelope as GET /api/{collection} with the same options: data (summary records without ' +
    "body: slug, title, summary, url, tags, dates and the collection's own fields, or only `fields`), meta (limit, " +
    'page, count, total, pages) and links (REST URLs of this, the next and the previous page). Use get_content ' +
    'with a slug to read one item in full.',
  inputSchema: z.object({
    collection: collectionArg(model.names).describe('Which collection to list.'),
    limit: limitArg.default(DEFAULT_LIMIT).describe(`Items per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`),
    page: pageArg.default(1).describe('Page number, starting at 1.'),
    ...filterArgs,
    sort: fieldList
      .optional()
      .describe(
        'The order: keys in turn, "-" before one for descending, e.g. ["-published_at"] or ["starts_at"]. Keys: published_at, updated_at, title; starts_at for webinars and events; ends_at for events.',
      ),
    fields: fieldList
      .optional()
      .describe('Only these fields of each item (id and type always), e.g. ["title", "slug", "url"].'),
    locale: localeArg.optional(),
  }),
  outputSchema: z.object({
    collection: collectionArg(model.names),
    data: z.array(z.looseObject({ id: z.string(), type: z.string() })),
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
}))

const QUERY_NAMES = ['limit', 'page', ...FILTER_NAMES, 'sort', 'fields']

export function registerListContent({ server, snapshot, now }: McpContext): void {
  const { model } = snapshot
  server.registerTool('list_content', listContentTool(model), (args) => {
    const { collection } = args
    const def = model.collections[collection]!
    const chosen = toolLocale(snapshot, args.locale)
    if (!chosen.ok) return toolError(chosen.message)
    const { locale } = chosen
    // REST's own parser, so a tool call and a REST call accept exactly the same options.
    const parsed = parseListQuery(queryOf(args, QUERY_NAMES), def, model)
    if (!parsed.ok) return toolError(parsed.errors.map((e) => `${e.parameter} ${e.message}`).join('; '))
    const query = locale ? { ...parsed.query, locale } : parsed.query
    const envelope = listEnvelope(def, summariesIn(snapshot, collection, locale), query, now().getTime())
    const { meta } = envelope
    const { label } = def
    const first = (meta.page - 1) * meta.limit
    const lines = envelope.data.map((r, i) => `${first + i + 1}. ${lineOf(r)}`)
    const matching = isFiltered(parsed.query) ? ' matching the filters' : ''
    const heading =
      meta.total === 0
        ? `No ${label} items${matching}.`
        : meta.count === 0
          ? `Page ${meta.page} is past the end: ${meta.total} ${label} item(s)${matching} fill ${meta.pages} page(s).`
          : `${collection}${matching}: items ${first + 1}–${first + meta.count} of ${meta.total} (page ${meta.page} of ${meta.pages}).`
    return toolResult({ collection, ...envelope }, [heading, ...lines].join('\n'))
  })
}

/** One item as a line: its title, slug and date, as far as `fields` kept them. */
function lineOf(record: Record<string, unknown>): string {
  const date =
    typeof record.starts_at === 'string'
      ? `starts ${record.starts_at}`
      : typeof record.published_at === 'string'
        ? `published ${record.published_at.slice(0, 10)}`
        : undefined
  const parts = [typeof record.slug === 'string' ? `slug "${record.slug}"` : `id ${String(record.id)}`, date]
  return `${typeof record.title === 'string' ? `${record.title} ` : ''}(${parts.filter(Boolean).join(', ')})`
}
