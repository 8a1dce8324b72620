/**
 * A real gateway for the MCP tests: the repository's content built into a
 * temporary project, the real credential guard with a built-in issuer and
 * an API keys file of its own, and /mcp mounted as `npm start` mounts it.
 */
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { buildSite } from '../../build/pipeline/run.ts'
import { ArtifactStore } from '../../gateway/artifacts.ts'
import { createAuth } from '../../gateway/auth/auth.ts'
import { generateApiKey, hashApiKey } from '../../gateway/auth/api-key.ts'
import { generateClientSecret, hashClientSecret, writeClientsFile } from '../../gateway/auth/issuer/clients-file.ts'
import { newKeyId, writeKeysFile } from '../../gateway/auth/keys-file.ts'
import { authPlugin } from '../../gateway/auth/plugin.ts'
import type { Scope } from '../../gateway/auth/scopes.ts'
import { mcpPlugin, type McpPluginOptions } from '../../gateway/mcp/plugin.ts'
import { startGateway, type TestGateway } from '../helpers/gateway.ts'
import { copyOfRepoContent, type TempProject } from '../helpers/project.ts'

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
  const project = await copyOfRepoContent()
  await buildSite({ root: project.root, cache: false })
  const secrets: Record<string, string> = {}
  const now = new Date().toISOString()
  await writeClientsFile(join(project.root, 'clients.json'), {
    version: 1,
    clients: Object.entries(CLIENTS).map(([id, scopes]) => {
      secrets[id] = generateClientSecret()
      return { client_id: id, secret_hash: hashClientSecret(secrets[id]!), scopes: [...scopes], label: `test ${id}`, created_at: now }
    }),
  })
  const sandboxKey = generateApiKey('sandbox')
  const agentKey = generateApiKey('live')
  await writeKeysFile(join(project.root, 'keys.json'), {
    version: 1,
    keys: [
      { id: newKeyId(), hash: hashApiKey(sandboxKey), role: 'sandbox.read', label: 'test sandbox', created_at: now },
      { id: newKeyId(), hash: hashApiKey(agentKey), role: 'agent.mcp', label: 'test agent', created_at: now },
    ],
  })
  let url = ''
  const auth = await createAuth(
    {
      keysFile: join(project.root, 'keys.json'),
      clockToleranceSeconds: 30,
      issuer: { kind: 'built-in', clientsFile: join(project.root, 'clients.json'), signingKeyFile: join(project.root, 'signing-key.json'), tokenTtlSeconds: 600 },
    },
    { publicUrl: () => url },
  )
  const store = new ArtifactStore(project.dist)
  await store.reload()
  const gw = await startGateway(project.dist, {
    store,
    plugins: [authPlugin(auth), mcpPlugin({ store, version: '0.0.0-test', auth, ...options })],
  })
  url = gw.url
  return {
    gw,
    store,
    project,
    sandboxKey,
    agentKey,
    async token(scopes) {
      const id = Object.entries(CLIENTS).find(([, s]) => scopes.every((x) => s.includes(x)))![0]
      const res = await fetch(`${gw.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${id}:${secrets[id]}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' '), resource: `${gw.url}/mcp` }),
      })
      if (!res.ok) throw new Error(`token endpoint answered ${res.status}: ${await res.text()}`)
      return ((await res.json()) as { access_token: string }).access_token
    },
    async close() {
      await gw.close()
      await project.remove()
    },
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

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
