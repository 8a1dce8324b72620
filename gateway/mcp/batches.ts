/**
 * JSON-RPC batches (an array of messages in one POST) exist in one MCP
 * revision only: 2025-03-26 added them, 2025-06-18 took them out again.
 * Under it, each message is a call of its own and draws from the MCP
 * budget like a request (a batch of 100 tool calls is 100, not 1); a batch
 * larger than what is left is a 429 for the whole batch. Any other
 * revision gets a 400 JSON-RPC error before the SDK sees the batch.
 *
 * The revision is the MCP-Protocol-Version header's; a request without one
 * is 2025-03-26, as the later revisions tell servers to assume (the header
 * came after it).
 */
import type { H3Event } from 'h3'
import { chargeMore } from '../http/budget-guard.ts'

/** The revisions that have batches. */
export const BATCH_REVISIONS: readonly string[] = ['2025-03-26']
const ASSUMED_REVISION = '2025-03-26'

/**
 * For a batch: charge its messages beyond the first (the budget guard took one for the request) or throw
 * the 429; a Response (400) when its revision has no batches. Undefined for anything else.
 */
export async function admitBatch(event: H3Event, parsed: unknown): Promise<Response | undefined> {
  if (!Array.isArray(parsed)) return undefined
  const revision = event.req.headers.get('mcp-protocol-version')?.trim() || ASSUMED_REVISION
  if (!BATCH_REVISIONS.includes(revision)) return batchRefused(revision)
  await chargeMore(event, parsed.length - 1)
  return undefined
}

function batchRefused(revision: string): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: `Invalid Request: MCP protocol revision ${revision.slice(0, 40)} has no JSON-RPC batches (only ${BATCH_REVISIONS.join(', ')} does); send one message per request.`,
      },
    },
    { status: 400 },
  )
}
