/** list_content: one collection with REST's list options (filters, order, fields, pages) and envelope. */
import { z } from 'zod'
import { listed, type CollectionModel, type ContentModel } from '../../../contract/model/model.ts'
import { selectFields } from '../../../contract/list-query.ts'
import type { ListQuery } from '../../../contract/query.ts'
import type { ContentRecord } from '../../../contract/records.ts'
import { isFiltered } from '../../../contract/filters.ts'
import { parseListQuery } from '../../../contract/query.ts'
import { listEnvelope, type ListEnvelope } from '../../../contract/render.ts'
import { PREVIEW_API_PATH } from '../../../contract/public-paths.ts'
import { includeDraftsArg, isRefusal, previewFor } from '../drafts.ts'
import { fieldsOf, filtersOf, sharedFilters, sortOf } from '../../../contract/routes/collection-parameters.ts'
import { LIMIT, PAGE } from '../../../contract/routes/parameters.ts'
import type { QueryParameter } from '../../../contract/routes/route.ts'
import type { McpContext } from '../context.ts'
import { ownFieldsShape } from '../record-fields.ts'
import { summariesIn, toolLocale } from '../../content/locales.ts'
import { queryOf, toolArguments } from '../arguments.ts'
import { collectionArg, localeArg, perModel, READ_ONLY, toolError, toolResult } from '../schemas.ts'

/**
 * The list route's query parameters, as one call of any collection takes them: the filters, `sort`
 * and `fields` of every collection (REST's reader then refuses what the one asked for does not have).
 */
const listArguments = perModel((model: ContentModel): readonly QueryParameter[] => {
  const all = model.names.map((name) => model.collections[name]!)
  const shared = new Set(sharedFilters(model).map((p) => p.name))
  const own = new Map<string, QueryParameter>()
  for (const collection of all)
    for (const p of filtersOf(model, collection)) if (!shared.has(p.name) && !own.has(p.name)) own.set(p.name, p)
  return [LIMIT, PAGE, ...sharedFilters(model), ...own.values(), sortOf(model, all), fieldsOf(model, all, 'summary')]
})

/** `blog-posts and case-studies by published_at, webinars and events by starts_at`. */
function ordersOf(model: ContentModel): string {
  const byField = new Map<string, string[]>()
  for (const name of model.names) {
    const { sortField } = model.collections[name]!
    byField.set(sortField, [...(byField.get(sortField) ?? []), name])
  }
  return [...byField].map(([field, names]) => `${listed(names)} by ${field}`).join(', ')
}

/** The tool's description and schemas, made once per build: each server (one per request in flight) registers it. */
const listContentTool = perModel((model: ContentModel) => ({
  title: 'List a collection',
  description:
    `List the published items of one collection (${listed(model.names, 'or')}), newest first ` +
    `(${ordersOf(model)}) unless sort says otherwise. ` +
    'Use it to browse, to find valid slugs, or to answer "the three newest posts by José", "upcoming webinars, ' +
    'soonest first" (when "upcoming", sort ["starts_at"]), "case studies tagged fintech or banking" (tag ' +
    '["fintech", "banking"]) or "posts from last quarter" (published_after, published_before). Filters combine. ' +
    'Returns the same list envelope as GET /api/{collection} with the same options: data (summary records without ' +
    "body: slug, title, summary, url, tags, dates and the collection's own fields, or only `fields`), meta (limit, " +
    'page, count, total, pages) and links (REST URLs of this, the next and the previous page). Use get_content ' +
    'with a slug to read one item in full.',
  inputSchema: z.object({
    collection: collectionArg(model.names).describe('Which collection to list.'),
    ...toolArguments(listArguments(model)),
    locale: localeArg,
    include_drafts: includeDraftsArg,
  }),
  outputSchema: z.object({
    collection: collectionArg(model.names),
    data: z.array(z.looseObject({ id: z.string(), type: z.string(), ...ownFieldsShape(model) })),
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

export function registerListContent({ server, snapshot, now, drafts }: McpContext): void {
  const { model } = snapshot
  server.registerTool('list_content', listContentTool(model), async (args) => {
    const { collection } = args
    const def = model.collections[collection]!
    const chosen = toolLocale(snapshot, args.locale)
    if (!chosen.ok) return toolError(chosen.message)
    const { locale } = chosen
    // REST's own parser, so a tool call and a REST call accept exactly the same options.
    const parsed = parseListQuery(queryOf(args, listArguments(model)), def, model)
    if (!parsed.ok) return toolError(parsed.errors.map((e) => `${e.parameter} ${e.message}`).join('; '))
    const query = locale ? { ...parsed.query, locale } : parsed.query
    const preview = args.include_drafts ? await previewFor(drafts()) : undefined
    if (preview && isRefusal(preview)) return preview
    const envelope = preview
      ? previewEnvelope(def, preview.summaries(def, locale), query, now().getTime())
      : listEnvelope(def, summariesIn(snapshot, collection, locale), query, now().getTime())
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

/** A preview list: the state kept whatever `fields` says, and the links the preview API's. */
function previewEnvelope(
  def: CollectionModel,
  summaries: readonly ContentRecord[],
  { fields, ...query }: ListQuery,
  now: number,
): ListEnvelope {
  const envelope = listEnvelope(def, summaries, query, now)
  const link = (href: string | null) => (href === null ? null : href.replace(/^\/api\//, `${PREVIEW_API_PATH}/`))
  const data = fields
    ? envelope.data.map((r) => ({
        ...(selectFields(r, fields) as ContentRecord),
        state: r.state,
        release_at: r.release_at,
      }))
    : envelope.data
  return {
    data,
    meta: envelope.meta,
    links: { self: link(envelope.links.self)!, next: link(envelope.links.next), prev: link(envelope.links.prev) },
  }
}

/** One item as a line: its title, slug and date, as far as `fields` kept them (and a preview's state). */
function lineOf(record: Record<string, unknown>): string {
  const date =
    typeof record.starts_at === 'string'
      ? `starts ${record.starts_at}`
      : typeof record.published_at === 'string'
        ? `published ${record.published_at.slice(0, 10)}`
        : undefined
  const state =
    typeof record.state === 'string' && record.state !== 'published'
      ? `${record.state}${typeof record.release_at === 'string' ? ` until ${record.release_at}` : ''}`
      : undefined
  const parts = [typeof record.slug === 'string' ? `slug "${record.slug}"` : `id ${String(record.id)}`, date, state]
  return `${typeof record.title === 'string' ? `${record.title} ` : ''}(${parts.filter(Boolean).join(', ')})`
}
