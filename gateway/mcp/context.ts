/** What every tool, resource and prompt of one MCP request works with. */
import type { McpServer } from '@modelcontextprotocol/server'
import type { Snapshot } from '../artifacts.ts'
import type { DraftAccess } from './drafts.ts'

export interface McpContext {
  server: McpServer
  /** The one build this request answers from. */
  snapshot: Snapshot
  /** The request's clock: "upcoming" is decided at request time, not at build time. */
  now: () => Date
  /** What the request may see of the preview (`include_drafts`); undefined where the gateway has none. */
  drafts?: DraftAccess
}
