/**
 * /mcp tests: the full gateway (credentials, issuer, keys) and real clients
 * of both protocol eras: the SDK v2 client pinned to revision 2026-07-28
 * (stateless, per-request _meta) and the SDK v1 client, whose newest
 * revision is 2025-11-25 (initialize handshake).
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client'
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Scope } from '../../../contract/scopes.ts'
import { MCP_HEADERS, startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'

export { MCP_HEADERS }

export const MODERN = '2026-07-28'
export const LEGACY = '2025-11-25'
/** The `_meta` envelope a raw 2026-07-28 request carries (protocol version, client info and capabilities). */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
}

/** The eras every client-level suite runs in. */
export const ERAS = [
  { era: 'modern', protocol: MODERN, client: 'SDK v2 client' },
  { era: 'legacy', protocol: LEGACY, client: 'SDK v1 client' },
] as const
export type Era = (typeof ERAS)[number]['era']

type Fields = Record<string, unknown>
type Schema = { type: string } & Fields

/** What the tests call on a client: the part both SDK majors have alike. */
export interface McpClient {
  listTools(): Promise<{
    tools: ({
      name: string
      description?: string
      inputSchema: Schema
      outputSchema?: Fields
      annotations?: Fields
    } & Fields)[]
  }>
  callTool(params: { name: string; arguments?: Fields }): Promise<Fields>
  listResources(): Promise<{ resources: ({ uri: string; name: string } & Fields)[] }>
  listResourceTemplates(): Promise<{ resourceTemplates: ({ uriTemplate: string } & Fields)[] }>
  readResource(params: { uri: string }): Promise<{ contents: ({ uri: string } & Fields)[] }>
  complete(params: {
    ref: { type: 'ref/resource'; uri: string } | { type: 'ref/prompt'; name: string }
    argument: { name: string; value: string }
    context?: { arguments?: Record<string, string> }
  }): Promise<{ completion: { values: string[] } }>
  listPrompts(): Promise<{
    prompts: ({ name: string; arguments?: ({ name: string; required?: boolean } & Fields)[] } & Fields)[]
  }>
  getPrompt(params: {
    name: string
    arguments?: Record<string, string>
  }): Promise<{ messages: { role: string; content: unknown }[] }>
  getServerVersion(): ({ name: string; version: string } & Fields) | undefined
  close(): Promise<void>
}

/** The whole gateway (helpers/gateway.ts) with the clients and keys the MCP suites use. */
export interface McpTestGateway extends Omit<BuiltGateway, 'token'> {
  /** An access token from the built-in issuer's token endpoint, for a client holding exactly `scopes`. */
  token(scopes: readonly Scope[]): Promise<string>
  /** An API key with the sandbox.read role (no mcp.tools.invoke). */
  sandboxKey: string
  /** An API key with the agent.mcp role. */
  agentKey: string
}

const CLIENTS: Record<string, readonly Scope[]> = {
  agent: ['mcp.tools.invoke'],
  reader: ['api.read'],
}

/** `env`: settings such as PUBLIC_URL and MCP_ALLOWED_ORIGINS; `now`: the clock of "upcoming". */
export async function startMcpGateway(
  options: { env?: Record<string, string>; now?: () => Date } = {},
): Promise<McpTestGateway> {
  const full = await startBuiltGateway({
    clients: CLIENTS,
    keys: { sandbox: 'sandbox.read', agent: 'agent.mcp' },
    env: options.env,
    platform: { now: options.now },
  })
  return {
    ...full,
    sandboxKey: full.keys.sandbox!,
    agentKey: full.keys.agent!,
    token(scopes) {
      const id = Object.entries(CLIENTS).find(([, s]) => scopes.every((x) => s.includes(x)))![0]
      return full.token(id, scopes)
    },
    close: full.close,
  }
}

const CLIENT_INFO = { name: 'content-api-tests', version: '1.0.0' }

/** The SDK v2 client, pinned to 2026-07-28 (no fallback), over real HTTP with `token` as the bearer credential. */
export async function connectModern(url: string, token?: string): Promise<ModernClient> {
  const client = new ModernClient(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN } } })
  await client.connect(new ModernTransport(new URL(`${url}/mcp`), { requestInit: { headers: bearer(token) } }))
  return client
}

/** The SDK v1 client (initialize handshake, 2025-11-25) over real HTTP. */
export async function connectLegacy(url: string, token?: string): Promise<LegacyClient> {
  const client = new LegacyClient(CLIENT_INFO)
  await client.connect(new LegacyTransport(new URL(`${url}/mcp`), { requestInit: { headers: bearer(token) } }))
  return client
}

/** A client of the given era, as the tests use it. */
export async function connectClient(url: string, token?: string, era: Era = 'modern'): Promise<McpClient> {
  return era === 'modern' ? connectModern(url, token) : connectLegacy(url, token)
}

function bearer(token: string | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {}
}

/** A raw JSON-RPC initialize request (2025-era handshake), for the HTTP-level checks. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
})
