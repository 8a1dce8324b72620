/**
 * A real gateway for the MCP tests: the repository's content built into a
 * temporary project, the real credential guard with a built-in issuer and
 * an API keys file of its own, and /mcp mounted as `npm start` mounts it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { ArtifactStore } from '../../gateway/artifacts.ts'
import type { Scope } from '../../build/contract/scopes.ts'
import type { McpPluginOptions } from '../../gateway/mcp/plugin.ts'
import { MCP_HEADERS, startFullGateway } from '../helpers/full-gateway.ts'
import type { TestGateway } from '../helpers/gateway.ts'
import type { TempProject } from '../helpers/project.ts'

export { MCP_HEADERS }

export interface McpTestGateway {
  gw: TestGateway
  /** The store /mcp answers from (swap snapshots into it). */
  store: ArtifactStore
  project: TempProject
  /** An access token from the built-in issuer's token endpoint, for a client holding exactly `scopes`. */
  token(scopes: readonly Scope[]): Promise<string>
  /** An API key with the sandbox.read role (no mcp.tools.invoke). */
  sandboxKey: string
  /** An API key with the agent.mcp role. */
  agentKey: string
  close(): Promise<void>
}

const CLIENTS: Record<string, readonly Scope[]> = {
  agent: ['mcp.tools.invoke'],
  reader: ['api.read'],
}

export async function startMcpGateway(options: Partial<McpPluginOptions> = {}): Promise<McpTestGateway> {
  const full = await startFullGateway({ clients: CLIENTS, keys: { sandbox: 'sandbox.read', agent: 'agent.mcp' }, mcp: options })
  return {
    gw: full.gw,
    store: full.store,
    project: full.project,
    sandboxKey: full.keys.sandbox!,
    agentKey: full.keys.agent!,
    token(scopes) {
      const id = Object.entries(CLIENTS).find(([, s]) => scopes.every((x) => s.includes(x)))![0]
      return full.token(id, scopes)
    },
    close: full.close,
  }
}

/** The SDK's own client over real HTTP, sending `token` as the bearer credential. */
export async function connectClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'content-api-tests', version: '1.0.0' })
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }))
  return client
}

/** A raw JSON-RPC initialize request, for the HTTP-level checks. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
})

