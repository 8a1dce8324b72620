/**
 * An MCP server over one snapshot: its tools, resources and prompts. Being
 * stateless is what lets the gateway scale out: any process can answer any
 * request, and a new build is picked up by the next request. A server
 * answers one request at a time and is kept for the next ones of its build
 * (server-pool.ts); what differs per request (the clock, draft access) its
 * tools read from the request (request-scope.ts). The same server serves
 * 2026-07-28 requests and 2025-era ones (see endpoint.ts).
 */
import { McpServer } from '@modelcontextprotocol/server'
import { API_VERSION } from '../../contract/lifecycle.ts'
import { datedCollections, listed, type ContentModel } from '../../contract/model/model.ts'
import type { Snapshot } from '../artifacts.ts'
import type { CACHE_HINTS } from './cache.ts'
import type { McpContext } from './context.ts'
import { reuseOutputSchemas } from './output-schemas.ts'
import { registerPrompts } from './prompts.ts'
import { registerResources } from './resources.ts'
import { requestDrafts, requestNow } from './request-scope.ts'
import { registerDescribeModel } from './tools/describe-model.ts'
import { registerFetch } from './tools/fetch.ts'
import { registerGetContent } from './tools/get-content.ts'
import { registerListContent } from './tools/list-content.ts'
import { registerListUpcoming } from './tools/list-upcoming.ts'
import { registerListTags } from './tools/list-tags.ts'
import { registerGetPerson } from './tools/get-person.ts'
import { registerSearch } from './tools/search.ts'
import { registerSearchContent } from './tools/search-content.ts'

export const MCP_SERVER_NAME = 'content-api'

/** What the server is for, naming the build's collections (and its dated ones, which list_upcoming lists). */
function instructions(model: ContentModel): string {
  const dated = datedCollections(model)
  return (
    `Read-only access to our published marketing content: ${listed(model.names.map((c) => c.replaceAll('-', ' ')))}. ` +
    'Use search_content to find items by topic, customer or phrase; list_content to browse a collection or find slugs; ' +
    `get_content to read one item in full before quoting it${dated.length ? `; list_upcoming for ${listed(dated)} that have not started yet` : ''}; ` +
    'list_tags for the topics the content covers and how many items each has. ' +
    'search and fetch are the same content for hosts that call those two names (ids are "collection/slug"). ' +
    'Every item is also a resource at content://{collection}/{slug}; describe_content_model (and model://content-model) says what each collection holds. ' +
    'Quote results and figures exactly as the content states them.'
  )
}

export interface McpServerOptions {
  snapshot: Snapshot
  /** The cache hints of its answers (cache.ts, `cacheHintsAt`): the SDK fixes them when the server is made. */
  cacheHints: typeof CACHE_HINTS
}

export function createMcpServer(options: McpServerOptions): McpServer {
  const server = reuseOutputSchemas(
    new McpServer(
      // The API's version: one for the REST API, the document and the tools alike.
      { name: MCP_SERVER_NAME, title: 'Content API', version: API_VERSION },
      {
        instructions: instructions(options.snapshot.model),
        // No list ever changes while a process serves one build, and a stateless server has no stream to announce
        // a new build on: listChanged is false, and the cache hints say how long a list stays fresh instead.
        capabilities: {
          tools: { listChanged: false },
          resources: { listChanged: false, subscribe: false },
          prompts: { listChanged: false },
          completions: {},
        },
        cacheHints: options.cacheHints,
      },
    ),
  )
  const ctx: McpContext = { server, snapshot: options.snapshot, now: requestNow, drafts: requestDrafts }
  registerSearchContent(ctx)
  registerListContent(ctx)
  registerGetContent(ctx)
  registerListUpcoming(ctx)
  registerListTags(ctx)
  registerGetPerson(ctx)
  registerSearch(ctx)
  registerFetch(ctx)
  registerDescribeModel(ctx)
  registerResources(ctx)
  registerPrompts(ctx)
  return server
}
