/**
 * The MCP server of one request: a fresh McpServer over one snapshot. Being
 * stateless is what lets the gateway scale out: any process can answer any
 * request, and a new build is picked up by the next request.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Snapshot } from '../artifacts.ts'
import type { McpContext } from './context.ts'
import { registerPrompts } from './prompts.ts'
import { registerResources } from './resources.ts'
import { registerGetContent } from './tools/get-content.ts'
import { registerListContent } from './tools/list-content.ts'
import { registerListUpcoming } from './tools/list-upcoming.ts'
import { registerSearchContent } from './tools/search-content.ts'

export const MCP_SERVER_NAME = 'content-api'

const INSTRUCTIONS =
  'Read-only access to our published marketing content: blog posts, customer case studies, webinars and events. ' +
  'Use search_content to find items by topic, customer or phrase; list_content to browse a collection or find slugs; ' +
  'get_content to read one item in full before quoting it; list_upcoming for events and webinars that have not started yet. ' +
  'Every item is also a resource at content://{collection}/{slug}. Quote results and figures exactly as the content states them.'

export interface McpServerOptions {
  snapshot: Snapshot
  version: string
  now?: () => Date
}

export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: 'Content API', version: options.version },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} } },
  )
  const ctx: McpContext = { server, snapshot: options.snapshot, now: options.now ?? (() => new Date()) }
  registerSearchContent(ctx)
  registerListContent(ctx)
  registerGetContent(ctx)
  registerListUpcoming(ctx)
  registerResources(ctx)
  registerPrompts(ctx)
  return server
}
