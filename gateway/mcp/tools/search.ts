/**
 * search: the connector contract that ChatGPT connectors and deep research
 * call by name. One string `query` in; `{results: [{id, title, url}]}` out,
 * as structured content and as JSON text. Ids are "collection/slug", which
 * `fetch` takes. Same index and ranking as search_content.
 */
import { z } from 'zod'
import { connectorId } from '../connector.ts'
import type { McpContext } from '../context.ts'
import { jsonResult, READ_ONLY } from '../schemas.ts'
import { search } from '../../search/search.ts'

/** How many results one search returns: enough for a research agent to choose from. */
export const CONNECTOR_SEARCH_RESULTS = 10
/** Hosts write long queries; the index looks at the first MAX_QUERY_LENGTH characters of them. */
const MAX_CONNECTOR_QUERY = 1000

const result = z.object({
  id: z.string().describe('Pass to fetch: "collection/slug".'),
  title: z.string(),
  url: z.string().describe('The canonical page on the marketing site.'),
})

/** The tool's description and schemas, made once: every request builds a new server that registers it. */
const SEARCH_TOOL = {
  title: 'Search (connector)',
  description:
    'Search every published blog post, case study, webinar and event by words or a phrase, best match first. ' +
    `Returns up to ${CONNECTOR_SEARCH_RESULTS} results, each with an id ("collection/slug"), its title and its ` +
    'canonical url. Call fetch with an id to read the full text of an item. search_content gives the same ' +
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
    const { hits } = await search(snapshot, { query, limit: CONNECTOR_SEARCH_RESULTS, page: 1 })
    const results = hits.flatMap((h) => {
      const record = snapshot.bySlug[h.collection].get(h.slug)
      return record
        ? [{ id: connectorId(h.collection, h.slug), title: record.title, url: String(record.url ?? '') }]
        : []
    })
    return jsonResult({ results })
  })
}
