/**
 * McpServers kept across the requests of one build. Registering the nine
 * tools, the resources and the prompts is most of what a server costs, and
 * what it leaves behind; one registration can answer every request of its
 * build. The SDK connects a server to one transport at a time, so a request
 * takes a server no other request holds (a new one when every kept one is
 * taken) and gives it back once its answer is made. Servers are kept per era:
 * the SDK binds a server to the revision it last served.
 */
import type { McpServer } from '@modelcontextprotocol/server'
import { MemoKey, type Snapshot } from '../snapshot.ts'
import { CACHE_HINTS, cacheHintsAt } from './cache.ts'
import { createMcpServer } from './server.ts'

export type Era = 'legacy' | 'modern'

/** Where a request's server comes from, and goes back to. */
export interface ServerSource {
  /** A server no other request holds, for a request of `era`. */
  take(era: Era): McpServer
  /** The server `take` gave, its request answered. */
  give(era: Era, server: McpServer): void
}

/** Idle servers kept per era: about as many as requests a process answers at once. */
const MAX_IDLE = 8

const POOLED = new MemoKey<ServerSource>('MCP servers kept for reuse')

/** The servers of `snapshot` for a request at `now` (epoch ms). */
export function serversFor(snapshot: Snapshot, now: number): ServerSource {
  const cacheHints = cacheHintsAt(snapshot.manifest.build, now)
  // Minutes before a scheduled release or expiry the hints shrink by the second: such a server answers its request alone.
  if (cacheHints !== CACHE_HINTS) return { take: () => createMcpServer({ snapshot, cacheHints }), give: () => {} }
  return snapshot.memo(POOLED, () => pooled(snapshot))
}

function pooled(snapshot: Snapshot): ServerSource {
  const idle: Record<Era, McpServer[]> = { legacy: [], modern: [] }
  return {
    take: (era) => idle[era].pop() ?? createMcpServer({ snapshot, cacheHints: CACHE_HINTS }),
    give: (era, server) => {
      if (idle[era].length < MAX_IDLE && reusable(era, server)) idle[era].push(server)
    },
  }
}

/**
 * Whether `server` can answer another request: not still connected (an answer still streaming), and not bound by a
 * 2025-era `initialize` to that client and its protocol version (a 2026-07-28 request sets its revision afresh, and
 * the SDK reads its client's capabilities from the request's own envelope).
 */
function reusable(era: Era, server: McpServer): boolean {
  if (server.isConnected()) return false
  return (
    era === 'modern' ||
    (server.server.getClientVersion() === undefined && server.server.getClientCapabilities() === undefined)
  )
}
