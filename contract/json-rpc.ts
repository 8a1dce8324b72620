/**
 * Bounds of the JSON-RPC envelope /mcp accepts, stated in the OpenAPI
 * document and checked by the gateway before the MCP SDK sees a message:
 * no MCP method name comes near them, and an id is the client's own label.
 */
export const JSON_RPC_LIMITS = {
  /** Characters of `method` (the longest MCP method, notifications/resources/list_changed, has 36). */
  method: 100,
  /** Characters of a string `id`. */
  id: 200,
} as const

/** Why a parsed JSON-RPC message breaks the bounds, or undefined when it keeps to them (or is not an object). */
export function envelopeProblem(message: unknown): string | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined
  const { method, id } = message as { method?: unknown; id?: unknown }
  if (typeof method === 'string' && method.length > JSON_RPC_LIMITS.method)
    return `method must be at most ${JSON_RPC_LIMITS.method} characters`
  if (typeof id === 'string' && id.length > JSON_RPC_LIMITS.id)
    return `a string id must be at most ${JSON_RPC_LIMITS.id} characters`
  if (typeof id === 'number' && !Number.isSafeInteger(id) && Number.isInteger(id))
    return 'a number id must be an integer of at most 2^53 - 1 in size'
  return undefined
}
