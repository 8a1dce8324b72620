/**
 * The whole gateway as `npm start` mounts it — REST, the credential routes
 * with the built-in issuer, /mcp — on a build of the repository's content,
 * with its JSON log lines captured and limits chosen by the test.
 */
import { join } from 'node:path'
import { buildSite } from '../../build/pipeline/run.ts'
import { ArtifactStore } from '../../gateway/artifacts.ts'
import { createAuth } from '../../gateway/auth/auth.ts'
import { generateApiKey, hashApiKey } from '../../gateway/auth/api-key.ts'
import { generateClientSecret, hashClientSecret, writeClientsFile } from '../../gateway/auth/issuer/clients-file.ts'
import { newKeyId, writeKeysFile } from '../../gateway/auth/keys-file.ts'
import { authPlugin } from '../../gateway/auth/plugin.ts'
import type { LimitSettings } from '../../gateway/http/limits.ts'
import { createLogger } from '../../gateway/log.ts'
import { mcpPlugin } from '../../gateway/mcp/plugin.ts'
import { startGateway, type TestGateway } from '../helpers/gateway.ts'
import { copyOfRepoContent, type TempProject } from '../helpers/project.ts'

export interface FullGateway {
  gw: TestGateway
  project: TempProject
  /** Every log line, debug level and up. */
  logs: string[]
  agentKey: string
  sandboxKey: string
  clientId: string
  clientSecret: string
  /** A token for mcp.tools.invoke from the built-in token endpoint. */
  token(): Promise<string>
  close(): Promise<void>
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

export async function startFullGateway(limits: Partial<LimitSettings> = {}, project?: TempProject): Promise<FullGateway> {
  const own = !project
  project ??= await copyOfRepoContent()
  await buildSite({ root: project.root, cache: false })
  const now = new Date().toISOString()
  const clientId = 'agent'
  const clientSecret = generateClientSecret()
  await writeClientsFile(join(project.root, 'clients.json'), {
    version: 1,
    clients: [{ client_id: clientId, secret_hash: hashClientSecret(clientSecret), scopes: ['mcp.tools.invoke', 'api.read'], label: 'reliability', created_at: now }],
  })
  const agentKey = generateApiKey('live')
  const sandboxKey = generateApiKey('sandbox')
  await writeKeysFile(join(project.root, 'keys.json'), {
    version: 1,
    keys: [
      { id: newKeyId(), hash: hashApiKey(agentKey), role: 'agent.mcp', label: 'reliability agent', created_at: now },
      { id: newKeyId(), hash: hashApiKey(sandboxKey), role: 'sandbox.read', label: 'reliability sandbox', created_at: now },
    ],
  })
  const logs: string[] = []
  const logger = createLogger('debug', (line) => logs.push(line))
  let url = ''
  const auth = await createAuth(
    {
      keysFile: join(project.root, 'keys.json'),
      clockToleranceSeconds: 30,
      issuer: { kind: 'built-in', clientsFile: join(project.root, 'clients.json'), signingKeyFile: join(project.root, 'signing-key.json'), tokenTtlSeconds: 600 },
    },
    { publicUrl: () => url, logger },
  )
  const store = new ArtifactStore(project.dist)
  await store.reload()
  const gw = await startGateway(project.dist, {
    store,
    logger,
    limits,
    plugins: [authPlugin(auth), mcpPlugin({ store, version: '0.0.0-test', auth, maxBodyBytes: limits.mcpBodyBytes })],
  })
  url = gw.url
  const p = project
  return {
    gw,
    project: p,
    logs,
    agentKey,
    sandboxKey,
    clientId,
    clientSecret,
    async token() {
      const res = await fetch(`${gw.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp.tools.invoke', resource: `${gw.url}/mcp` }),
      })
      if (!res.ok) throw new Error(`token endpoint answered ${res.status}: ${await res.text()}`)
      return ((await res.json()) as { access_token: string }).access_token
    },
    async close() {
      await gw.close()
      if (own) await p.remove()
    },
  }
}
