/**
 * The gateway as `npm start` mounts it: built content, the credential
 * routes with the built-in issuer (the committed API keys file, so the
 * published sandbox key works) and /mcp.
 */
import { join } from 'node:path'
import { buildSite } from '../../build/pipeline/run.ts'
import { createAuth } from '../../gateway/auth/auth.ts'
import { DEFAULT_KEYS_FILE } from '../../gateway/auth/keys-file.ts'
import { generateClientSecret, hashClientSecret, writeClientsFile } from '../../gateway/auth/issuer/clients-file.ts'
import { authPlugin } from '../../gateway/auth/plugin.ts'
import { SCOPE_NAMES } from '../../gateway/auth/scopes.ts'
import { mcpPlugin } from '../../gateway/mcp/plugin.ts'
import { ArtifactStore } from '../../gateway/artifacts.ts'
import { startGateway, type TestGateway } from '../helpers/gateway.ts'
import { copyOfRepoContent, REPO_ROOT, type TempProject } from '../helpers/project.ts'

export interface FullGateway {
  gw: TestGateway
  project: TempProject
  /** A client of the built-in issuer allowed every scope. */
  client: { id: string; secret: string }
  close(): Promise<void>
}

export async function startFullGateway(): Promise<FullGateway> {
  const project = await copyOfRepoContent()
  await buildSite({ root: project.root, cache: false })
  const client = { id: 'discovery', secret: generateClientSecret() }
  await writeClientsFile(join(project.root, 'clients.json'), {
    version: 1,
    clients: [{ client_id: client.id, secret_hash: hashClientSecret(client.secret), scopes: [...SCOPE_NAMES], label: 'discovery tests', created_at: new Date().toISOString() }],
  })
  let url = ''
  const auth = await createAuth(
    {
      keysFile: join(REPO_ROOT, DEFAULT_KEYS_FILE),
      clockToleranceSeconds: 30,
      issuer: { kind: 'built-in', clientsFile: join(project.root, 'clients.json'), signingKeyFile: join(project.root, 'signing-key.json'), tokenTtlSeconds: 600 },
    },
    { publicUrl: () => url },
  )
  const store = new ArtifactStore(project.dist)
  await store.reload()
  const gw = await startGateway(project.dist, { store, plugins: [authPlugin(auth), mcpPlugin({ store, version: '0.0.0-test', auth })] })
  url = gw.url
  return {
    gw,
    project,
    client,
    async close() {
      await gw.close()
      await project.remove()
    },
  }
}
