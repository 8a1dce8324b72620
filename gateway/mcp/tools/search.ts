/**
 * search: the connector contract that ChatGPT connectors and deep research
 * call by name. One string `query` in (the contract's only argument: no
 * locale); `{results: [{id, title, url}]}` out, as structured content and as
 * JSON text. Ids are "collection/slug", which `fetch` takes. Same index and
 * ranking as search_content; a multilingual site searches every locale, each
 * in its own language, and merges the rankings, so a question asked in
 * German finds the German translations (their ids name the locale).
 */
import { z } from 'zod'
import type { CollectionName } from '../../../contract/model/model.ts'
import type { ContentRecord } from '../../../contract/records.ts'
import { isMultilingual, localesOf, recordsBySlug } from '../../content/locales.ts'
import type { Snapshot } from '../../snapshot.ts'
import { followMoved, parseConnectorId, recordConnectorId } from '../connector.ts'
import { readItemIn } from '../content.ts'
import type { McpContext } from '../context.ts'
import { hitSection, jsonResult, READ_ONLY } from '../schemas.ts'
import type { HitSection } from '../../search/hit-section.ts'
import { search } from '../../search/search.ts'

/** How many results one search returns: enough for a research agent to choose from. */
export const CONNECTOR_SEARCH_RESULTS = 10
/** Hosts write long queries; the index looks at the first MAX_QUERY_LENGTH characters of them. */
const MAX_CONNECTOR_QUERY = 1000

const result = z.object({
  id: z.string().describe('Pass to fetch: "collection/slug".'),
  title: z.string(),
  url: z.string().describe('The canonical page on the marketing site.'),
  section: hitSection.optional(),
  moved_from: z.string().optional().describe('The old id the query named, when this item is where it moved.'),
})

/** The tool's description and schemas, made once: each server (one per request in flight) registers it. */
const SEARCH_TOOL = {
  title: 'Search (connector)',
  description:
    'Search every published blog post, case study, webinar and event by words or a phrase, best match first ' +
    '(on a multilingual site in every language it publishes: ask in the language you want answers in). ' +
    `Returns up to ${CONNECTOR_SEARCH_RESULTS} results, each with an id ("collection/slug"), its title, its ` +
    'canonical url and the section the best match is in (its anchor url, to cite; pass its id as `section` to fetch). Call fetch with an id to read the full text of an item. search_content gives the same ' +
    'ranking with snippets, summaries and filters.',
  inputSchema: z.object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(MAX_CONNECTOR_QUERY)
      .describe('What to look for, e.g. "ledger reconciliation" or a customer name.'),
  }),
  outputSchema: z.object({ results: z.array(result) }),
  annotations: { title: 'Search (connector)', ...READ_ONLY },
}

export function registerSearch({ server, snapshot }: McpContext): void {
  server.registerTool('search', SEARCH_TOOL, async ({ query }) => {
    const found = await bestAcrossLocales(snapshot, query)
    const results: z.infer<typeof result>[] = found.map(({ collection, record, section }) => ({
      id: recordConnectorId(snapshot, collection, record),
      title: record.title,
      url: String(record.url ?? ''),
      section,
    }))
    // An old id of an item as the query (a link kept from before it moved): that item first.
    const moved = await movedItem(snapshot, query)
    if (moved) return jsonResult({ results: [moved, ...results.filter((r) => r.id !== moved.id)] })
    return jsonResult({ results })
  })
}

/** Reciprocal rank fusion's constant: how much the first ranks outweigh the later ones. */
const FUSION_K = 60

/**
 * The best records for `query`: a single-language site's ranking; a multilingual site's, each
 * locale's ranking merged by reciprocal rank fusion (BM25 scores of indexes in different languages
 * do not compare), each record once (a locale falling back finds the default's records too).
 */
async function bestAcrossLocales(
  snapshot: Snapshot,
  query: string,
): Promise<{ collection: CollectionName; record: ContentRecord; section: HitSection | null }[]> {
  const locales = isMultilingual(snapshot) ? localesOf(snapshot).available : [undefined]
  const fused = new Map<
    string,
    { collection: CollectionName; record: ContentRecord; section: HitSection | null; score: number }
  >()
  for (const locale of locales) {
    const { hits } = await search(snapshot, {
      query,
      limit: CONNECTOR_SEARCH_RESULTS,
      page: 1,
      ...(locale !== undefined && { locale }),
    })
    for (const [rank, hit] of hits.entries()) {
      const record = recordsBySlug(
        snapshot,
        hit.collection,
        locale === localesOf(snapshot).default ? undefined : locale,
      ).get(hit.slug)
      if (!record) continue
      const entry = fused.get(record.id) ?? { collection: hit.collection, record, section: hit.section, score: 0 }
      entry.score += 1 / (FUSION_K + rank + 1)
      fused.set(record.id, entry)
    }
  }
  return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, CONNECTOR_SEARCH_RESULTS)
}

/** The result for the item an old id (the whole query) names, where it moved to; undefined for any other query. */
async function movedItem(snapshot: Snapshot, query: string): Promise<z.infer<typeof result> | undefined> {
  const ref = parseConnectorId(snapshot, query)
  if (!ref || (await readItemIn(snapshot, ref))) return undefined
  const followed = await followMoved(snapshot, ref)
  if (!followed || !('moved' in followed)) return undefined
  const record = await readItemIn(snapshot, followed.moved)
  if (!record) return undefined
  return {
    id: recordConnectorId(snapshot, followed.moved.collection, record),
    title: record.title,
    url: String(record.url ?? ''),
    moved_from: query.trim(),
  }
}
