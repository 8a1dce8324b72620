/** search_content: ranked full-text search across all collections, with snippets. */
import { z } from 'zod'
import { COLLECTIONS } from '../../../contract/collections.ts'
import { recordUri } from '../content.ts'
import { search } from '../../search/search.ts'
import type { McpContext } from '../context.ts'
import { LIST_FILTERS } from '../../../contract/routes/parameters.ts'
import { COLLECTION_FILTER, QUERY } from '../../../contract/routes/reach-parameters.ts'
import { parseSearchQuery } from '../../../contract/search-query.ts'
import { queryOf, textArgument, toolArgument, toolArguments } from '../arguments.ts'
import { collectionArg, localeArg, READ_ONLY, toolError, toolResult } from '../schemas.ts'
import { recordsBySlug, toolLocale } from '../../content/locales.ts'
import type { CollectionName } from '../../../contract/collections.ts'

/** Results per call: enough to choose from, few enough to read. */
export const MAX_SEARCH_RESULTS = 25

const hit = z.object({
  rank: z.number().int(),
  collection: collectionArg,
  slug: z.string(),
  type: z.string(),
  title: z.string(),
  summary: z.string(),
  url: z.string(),
  published_at: z.string(),
  resource_uri: z.string(),
  score: z.number(),
  snippet: z.string(),
  matched_terms: z.array(z.string()),
})

/** The tool's description and schemas, made once: every request builds a new server that registers it. */
const SEARCH_CONTENT_TOOL = {
  title: 'Search all content',
  description:
    'Full-text search across every published blog post, case study, webinar and event. Use it first when the user ' +
    'asks about a topic, customer, product, phrase or person and you do not know the exact item. Returns the best ' +
    'matches ranked by relevance (BM25; title and summary weigh more than body text), each with its collection, ' +
    'slug, title, summary, canonical url, a text snippet around the match and a content:// resource URI. ' +
    'Narrow it with the filters of list_content (tag, author, published_after, published_before, updated_since, ' +
    'when, exclude). Pass collection and slug to get_content to read an item in full.',
  inputSchema: z.object({
    // REST's `q`, by the name the tool has always had.
    query: textArgument(QUERY),
    collection: toolArgument(COLLECTION_FILTER),
    ...toolArguments(LIST_FILTERS),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_RESULTS)
      .default(5)
      .describe(`How many results, 1 to ${MAX_SEARCH_RESULTS} (default 5).`),
    locale: localeArg,
  }),
  outputSchema: z.object({
    query: z.string(),
    total: z.number().int().describe('How many items matched in all; results holds the best `limit` of them.'),
    results: z.array(hit),
  }),
  annotations: { title: 'Search all content', ...READ_ONLY },
}

export function registerSearchContent({ server, snapshot, now }: McpContext): void {
  server.registerTool('search_content', SEARCH_CONTENT_TOOL, async (args) => {
    const { limit } = args
    const chosen = toolLocale(snapshot, args.locale)
    if (!chosen.ok) return toolError(chosen.message)
    const { locale } = chosen
    // REST's own reader, so the tool and GET /api/search accept the same.
    const params = queryOf(args, [COLLECTION_FILTER, ...LIST_FILTERS])
    params.set(QUERY.name, args.query)
    const parsed = parseSearchQuery(params)
    if (!parsed.ok)
      return toolError(
        parsed.errors.map((e) => `${e.parameter === QUERY.name ? 'query' : e.parameter} ${e.message}`).join('; '),
      )
    const { query } = parsed.query
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
        matched_terms: h.matched_terms,
      }
    })
    const text = [
      `${total} item(s) matched "${query}"; the best ${results.length}:`,
      ...results.map(
        (r) =>
          `${r.rank}. ${r.title} (${COLLECTIONS[r.collection].label}, slug "${r.slug}")\n   ${r.snippet}\n   ${r.url}`,
      ),
    ].join('\n')
    return toolResult({ query, total, results }, text)
  })
}
