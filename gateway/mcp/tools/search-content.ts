/** search_content: ranked full-text search across all collections, with snippets. */
import { z } from 'zod'
import { recordUri } from '../content.ts'
import { search } from '../../search/search.ts'
import type { McpContext } from '../context.ts'
import { QUERY } from '../../../contract/routes/search-changes-parameters.ts'
import { collectionFilter, sharedFilters } from '../../../contract/routes/collection-parameters.ts'
import { parseSearchQuery } from '../../../contract/search-query.ts'
import { queryOf, textArgument, toolArgument, toolArguments } from '../arguments.ts'
import { collectionArg, hitSection, localeArg, perModel, READ_ONLY, toolError, toolResult } from '../schemas.ts'
import { isMultilingual, recordsBySlug, toolLocale } from '../../content/locales.ts'
import { includeDraftsArg, isRefusal, previewFor } from '../drafts.ts'
import { PREVIEW_STATES } from '../../../contract/preview.ts'
import { stateOf } from '../../preview/artifact.ts'
import { searchPreview } from '../../preview/search.ts'
import { listed, type CollectionName, type ContentModel } from '../../../contract/model/model.ts'

/** Results per call: enough to choose from, few enough to read. */
export const MAX_SEARCH_RESULTS = 25

const hitOf = (model: ContentModel) =>
  z.object({
    rank: z.number().int(),
    collection: collectionArg(model.names),
    slug: z.string(),
    type: z.string(),
    title: z.string(),
    summary: z.string(),
    url: z.string(),
    published_at: z.string(),
    resource_uri: z.string(),
    score: z.number(),
    snippet: z.string(),
    section: hitSection,
    matched_terms: z.array(z.string()),
    state: z.enum(PREVIEW_STATES).optional().describe('With include_drafts: where the item stands.'),
    release_at: z.string().nullable().optional().describe('With include_drafts: when a scheduled item is published.'),
  })

/** The tool's description and schemas, made once per build: each server (one per request in flight) registers it. */
const searchContentTool = perModel((model: ContentModel) => ({
  title: 'Search all content',
  description:
    `Full-text search across every published ${listed(model.names.map((c) => model.collections[c]!.label))}. Use it first when the user ` +
    'asks about a topic, customer, product, phrase or person and you do not know the exact item. Returns the best ' +
    'matches ranked by relevance (BM25; title and summary weigh more than body text), each with its collection, ' +
    'slug, title, summary, canonical url, a text snippet around the match, the section it is in (its heading ' +
    'and anchor url, to cite; pass its id as `section` to get_content) and a content:// resource URI. ' +
    'Narrow it with the filters of list_content (tag, author, published_after, published_before, updated_since, ' +
    'when, exclude). Pass collection and slug to get_content to read an item in full.',
  inputSchema: z.object({
    // REST's `q`, by the name the tool has always had.
    query: textArgument(QUERY),
    collection: toolArgument(collectionFilter(model)),
    ...toolArguments(sharedFilters(model)),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_RESULTS)
      .default(5)
      .describe(`How many results, 1 to ${MAX_SEARCH_RESULTS} (default 5).`),
    locale: localeArg,
    include_drafts: includeDraftsArg,
  }),
  outputSchema: z.object({
    query: z.string(),
    total: z.number().int().describe('How many items matched in all; results holds the best `limit` of them.'),
    results: z.array(hitOf(model)),
  }),
  annotations: { title: 'Search all content', ...READ_ONLY },
}))

export function registerSearchContent({ server, snapshot, now, drafts }: McpContext): void {
  const { model } = snapshot
  server.registerTool('search_content', searchContentTool(model), async (args) => {
    const { limit } = args
    const chosen = toolLocale(snapshot, args.locale)
    if (!chosen.ok) return toolError(chosen.message)
    const { locale } = chosen
    // REST's own reader, so the tool and GET /api/search accept the same.
    const params = queryOf(args, [collectionFilter(model), ...sharedFilters(model)])
    params.set(QUERY.name, args.query)
    const parsed = parseSearchQuery(params, model)
    if (!parsed.ok)
      return toolError(
        parsed.errors.map((e) => `${e.parameter === QUERY.name ? 'query' : e.parameter} ${e.message}`).join('; '),
      )
    const { query } = parsed.query
    if (args.include_drafts) {
      const preview = await previewFor(drafts())
      if (isRefusal(preview)) return preview
      const found = searchPreview(
        preview,
        model,
        { ...parsed.query, limit, page: 1, ...(locale && { locale }) },
        now().getTime(),
        isMultilingual(snapshot),
      )
      const results = found.hits.map(({ entry, score, snippet, section, matched_terms }, i) => ({
        rank: i + 1,
        collection: entry.collection as CollectionName,
        slug: entry.slug,
        type: entry.record.type,
        title: entry.record.title,
        summary: String(entry.record.summary ?? ''),
        url: String(entry.record.url ?? ''),
        published_at: entry.record.published_at,
        resource_uri: recordUri(snapshot, entry.collection as CollectionName, entry.record),
        score,
        snippet,
        section,
        matched_terms,
        ...stateOf(entry),
      }))
      const text = [
        `${found.total} item(s) matched "${query}", drafts and scheduled items included; the best ${results.length}:`,
        ...results.map((r) => `${r.rank}. ${r.title} (${r.state}, slug "${r.slug}")\n   ${r.snippet}`),
      ].join('\n')
      return toolResult({ query, total: found.total, results }, text)
    }
    const { total, hits } = await search(snapshot, {
      ...parsed.query,
      limit,
      page: 1,
      now: now().getTime(),
      ...(locale && { locale }),
    })
    const records = (c: CollectionName) => recordsBySlug(snapshot, c, locale)
    if (total === 0) {
      return toolResult(
        { query, total, results: [] },
        `Nothing matched "${query}". Try fewer or other words, or browse a collection with list_content.`,
      )
    }
    const results = hits.map((h, i) => {
      // The list form in the manifest has every field a result shows.
      const record = records(h.collection).get(h.slug)!
      return {
        rank: i + 1,
        collection: h.collection,
        slug: h.slug,
        type: record.type,
        title: record.title,
        summary: String(record.summary ?? ''),
        url: String(record.url ?? ''),
        published_at: record.published_at,
        resource_uri: recordUri(snapshot, h.collection, record),
        score: h.score,
        snippet: h.snippet,
        section: h.section,
        matched_terms: h.matched_terms,
      }
    })
    const text = [
      `${total} item(s) matched "${query}"; the best ${results.length}:`,
      ...results.map(
        (r) =>
          `${r.rank}. ${r.title} (${snapshot.model.collections[r.collection]!.label}, slug "${r.slug}")\n   ${r.snippet}\n   ${r.section ? `${r.section.url} (section "${r.section.text}")` : r.url}`,
      ),
    ].join('\n')
    return toolResult({ query, total, results }, text)
  })
}
