/** What every tool, resource and prompt of an MCP server works with. */
import type { McpServer } from '@modelcontextprotocol/server'
import type { Snapshot } from '../artifacts.ts'
import type { DraftAccess } from './drafts.ts'

export interface McpContext {
  server: McpServer
  /** The one build this server answers from. */
  snapshot: Snapshot
  /** The clock of the request being answered: "upcoming" is decided at request time, not at build time. */
  now: () => Date
  /**
   * What the request being answered may see of the preview (`include_drafts`); undefined where the gateway has
   * none. Asked per call: the server answers many requests, each with its own credential (request-scope.ts).
   */
  drafts: () => DraftAccess | undefined
}
