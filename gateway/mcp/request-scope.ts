/**
 * What belongs to the MCP request being answered, not to the server that
 * answers it: the clock and the request's draft access. One McpServer serves
 * many requests of a build (server-pool.ts), so its tools read these per call
 * from the request's async context, where a tool still running for an
 * abandoned request keeps seeing its own request's, never the next one's.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { DraftAccess } from './drafts.ts'

export interface McpRequestScope {
  /** The request's clock: "upcoming" is decided at request time, not at build time. */
  now: () => Date
  /** What the request may see of the preview; undefined where the gateway has none. */
  drafts?: DraftAccess
}

const scope = new AsyncLocalStorage<McpRequestScope>()

/** Runs `serve` (one request's answer) with `request` as what its tools read. */
export function inMcpRequest<T>(request: McpRequestScope, serve: () => T): T {
  return scope.run(request, serve)
}

/** The time of the request being answered (the wall clock outside any). */
export function requestNow(): Date {
  return scope.getStore()?.now() ?? new Date()
}

/** The draft access of the request being answered: none outside one. */
export function requestDrafts(): DraftAccess | undefined {
  return scope.getStore()?.drafts
}
