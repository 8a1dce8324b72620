/** Operations only the gateway answers: health and the MCP endpoint (the authorization server's are in paths-oauth.ts). */
import { headerRef, problemResponseName, responseRef, schemaRef } from './components.ts'
import { problems } from './paths-content.ts'
import { MCP_SECURITY } from './security.ts'
import { HEALTH_PATH, MCP_PATH } from '../contract/public-paths.ts'

type Json = Record<string, unknown>

const JSON_RPC_MESSAGE = {
  type: 'object',
  description: 'A JSON-RPC 2.0 request or notification of the Model Context Protocol (e.g. `initialize`, `tools/list`, `tools/call`).',
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer'], description: 'Absent for notifications.' },
    method: { type: 'string' },
    params: { type: 'object' },
  },
}

const JSON_RPC_RESPONSE = {
  type: 'object',
  description: 'A JSON-RPC 2.0 response: `result` on success, `error` otherwise.',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    result: { type: 'object' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
    },
  },
}

const notSupported = (method: string): Json => ({
  operationId: `mcp${method}`,
  tags: ['Agents (MCP)'],
  summary: `${method.toUpperCase()} /mcp is not supported`,
  description: 'The server is stateless: no server-sent event stream and no sessions to end. Always 405 with `Allow: POST`.',
  security: [],
  responses: { '405': responseRef(problemResponseName(405)) },
})

export function gatewayPaths(): Record<string, Json> {
  const health: Json = {
    operationId: 'getHealth',
    tags: ['Operations'],
    summary: 'Health of the gateway and the build it serves',
    description: 'Never cached. 503 when the built artifacts are missing or unreadable.',
    security: [],
    responses: {
      '200': {
        description: 'Serving a build.',
        headers: { 'Cache-Control': headerRef('CacheControl'), 'X-Request-Id': headerRef('XRequestId') },
        content: { 'application/json': { schema: schemaRef('Health') } },
      },
      ...problems(503),
    },
  }
  return {
    [HEALTH_PATH]: { get: health, head: { ...health, operationId: 'headHealth', summary: 'Health, headers only' } },
    [MCP_PATH]: {
      post: {
        operationId: 'mcp',
        tags: ['Agents (MCP)'],
        summary: 'Model Context Protocol endpoint (Streamable HTTP)',
        description:
          'Connect an MCP client here (Streamable HTTP transport, stateless, JSON responses): protocol revision 2026-07-28 (no ' +
          'handshake; `_meta` envelope and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers on each request) and the ' +
          '2025 revisions (`initialize` handshake) on the same endpoint. Needs the `mcp.tools.invoke` scope or an `agent.mcp` API key. ' +
          'Tools (all read-only): `search_content`, `list_content`, `get_content`, `list_upcoming`, and the connector pair `search` ' +
          '(`query` → `{results: [{id, title, url}]}`) and `fetch` (`id` → `{id, title, text, url, metadata}`); every item is a ' +
          'resource `content://{collection}/{slug}`. Send `Accept: application/json, text/event-stream`. Origin and Host are checked.',
        security: MCP_SECURITY,
        requestBody: { required: true, content: { 'application/json': { schema: JSON_RPC_MESSAGE } } },
        responses: {
          '200': {
            description: 'The JSON-RPC response.',
            headers: { 'X-Request-Id': headerRef('XRequestId') },
            content: { 'application/json': { schema: JSON_RPC_RESPONSE } },
          },
          '202': { description: 'A notification or response was accepted; no body.' },
          '400': {
            description:
              'Not a valid JSON-RPC message; or (2026-07-28) headers that disagree with the body (`-32020`) or a protocol revision ' +
              'the server does not serve (`-32022`).',
            content: { 'application/json': { schema: JSON_RPC_RESPONSE }, 'application/problem+json': { schema: schemaRef('Problem') } },
          },
          '404': {
            description:
              'A method the server does not implement, on a 2026-07-28 request (`-32601`); also `subscriptions/listen`: lists change ' +
              'only with a new build, so results carry `ttlMs` instead of change notifications.',
            content: { 'application/json': { schema: JSON_RPC_RESPONSE } },
          },
          ...problems(401, 403, 406, 413, 415, 429, 500, 503),
        },
      },
      get: notSupported('get'),
      delete: notSupported('delete'),
    },
  }
}
