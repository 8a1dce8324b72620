/** POST /mcp: the Model Context Protocol endpoint (Streamable HTTP, stateless, JSON answers). */
import { JSON_MEDIA_TYPE } from '../headers.ts'
import { JSON_RPC_LIMITS } from '../json-rpc.ts'
import { MCP_PATH } from '../public-paths.ts'
import { CORS_HEADERS, problems } from './responses.ts'
import { route } from './route.ts'
import { headerRef, int32, MAX_SAFE_INTEGER, schemaRef, text } from './schema.ts'

/** A JSON-RPC id: the client's label, echoed in the answer (bounds checked by the gateway, contract/json-rpc.ts). */
const ID = {
  type: ['string', 'integer'],
  maxLength: JSON_RPC_LIMITS.id,
  format: 'int64',
  minimum: -MAX_SAFE_INTEGER,
  maximum: MAX_SAFE_INTEGER,
  description: `Absent for notifications. A string of at most ${JSON_RPC_LIMITS.id} characters, or an integer.`,
}

const JSON_RPC_MESSAGE = {
  type: 'object',
  description:
    'A JSON-RPC 2.0 request or notification of the Model Context Protocol (e.g. `initialize`, `tools/list`, `tools/call`). The gateway refuses one outside these bounds with `-32600`.',
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: ID,
    method: text(JSON_RPC_LIMITS.method, {
      examples: [
        'initialize',
        'ping',
        'tools/list',
        'tools/call',
        'resources/list',
        'resources/templates/list',
        'resources/read',
        'prompts/list',
        'server/discover',
      ],
    }),
    params: { type: 'object' },
  },
}

/** The answers are the MCP SDK's, shaped by the MCP specification; tools/list gives each tool's output schema. */
const JSON_RPC_RESPONSE = {
  type: 'object',
  description: 'A JSON-RPC 2.0 response: `result` on success, `error` otherwise.',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { ...ID, type: ['string', 'integer', 'null'] },
    result: { type: 'object' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: int32(-2147483648, 2147483647), message: { type: 'string' }, data: {} },
    },
  },
}

/** Every answer of /mcp: the request id and CORS (the budget adds the RateLimit fields). */
const headers = { 'X-Request-Id': headerRef('X-Request-Id'), ...CORS_HEADERS }

export const mcp = route({
  path: MCP_PATH,
  methods: ['POST'],
  methodNote: 'this server is stateless and answers JSON-RPC over POST only (no SSE stream, no sessions)',
  served: 'gateway',
  budgets: ['dynamic'],
  body: { types: [JSON_MEDIA_TYPE], limit: 'MCP_MAX_BODY_BYTES', content: { [JSON_MEDIA_TYPE]: JSON_RPC_MESSAGE } },
  operations: {
    post: {
      operationId: 'mcp',
      tags: ['Agents (MCP)'],
      summary: 'Model Context Protocol endpoint (Streamable HTTP)',
      description:
        'Connect an MCP client here (Streamable HTTP transport, stateless, JSON responses): protocol revision 2026-07-28 (no ' +
        'handshake; `_meta` envelope and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers on each request) and the ' +
        '2025 revisions (`initialize` handshake) on the same endpoint. Needs the `mcp.tools.invoke` scope or an `agent.mcp` API key. ' +
        'Tools (all read-only): `search_content`, `list_content`, `get_content`, `list_upcoming`, `list_tags`, `get_person`, and the connector pair `search` ' +
        '(`query` → `{results: [{id, title, url}]}`) and `fetch` (`id` → `{id, title, text, url, metadata}`); every item is a ' +
        'resource `content://{collection}/{slug}`. Send `Accept: application/json, text/event-stream`. Origin and Host are checked. ' +
        'POST only: the server is stateless, so GET (an event stream) and DELETE (ending a session) answer 405 with `Allow: POST, OPTIONS`.',
      security: [{ oauth2: ['mcp.tools.invoke'] }, { apiKey: [] }],
      responses: {
        '200': {
          description: 'The JSON-RPC response.',
          headers,
          content: { 'application/json': { schema: JSON_RPC_RESPONSE } },
        },
        '202': { description: 'A notification or response was accepted; no body.', headers },
        '400': {
          description:
            'Not a valid JSON-RPC message (`-32600`, also for one outside the bounds of the request schema); or (2026-07-28) headers that ' +
            'disagree with the body (`-32020`) or a protocol revision the server does not serve (`-32022`).',
          headers,
          content: {
            'application/json': { schema: JSON_RPC_RESPONSE },
            'application/problem+json': { schema: schemaRef('Problem') },
          },
        },
        '404': {
          description:
            'A method the server does not implement, on a 2026-07-28 request (`-32601`); also `subscriptions/listen`: lists change ' +
            'only with a new build, so results carry `ttlMs` instead of change notifications.',
          headers,
          content: { 'application/json': { schema: JSON_RPC_RESPONSE } },
        },
        ...problems(401, 403, 406, 413, 415, 500, 503),
      },
    },
  },
})
