/**
 * The whole gateway as `npm start` mounts it — through the same settings and
 * wiring (gateway/config.ts, gateway/setup.ts): REST, the credential routes
 * with the embedded issuer, /mcp — on a build of fixture content, with its
 * own clients, API keys and people so tests can get real tokens and keys.
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { buildSite } from '../../build/compiler/build.ts'
import { ArtifactStore } from '../../gateway/artifacts.ts'
import { generateApiKey, hashApiKey } from '../../gateway/auth/api-key.ts'
import { generateClientSecret, hashClientSecret, writeClientsFile } from '../../gateway/auth/issuer/clients-file.ts'
import { newKeyId, writeKeysFile } from '../../gateway/auth/keys-file.ts'
import { openPeople } from '../../gateway/auth/people/people.ts'
import { SCOPE_NAMES, type Role, type Scope } from '../../contract/scopes.ts'
import { openFileStore } from '../../gateway/auth/store/file-store.ts'
import type { LimitSettings } from '../../gateway/http/limits.ts'
import { createLogger } from '../../gateway/log.ts'
import { readConfig } from '../../gateway/config.ts'
import { gatewayOptions, type SetupRuntime } from '../../gateway/setup.ts'
import { MCP_PATH } from '../../contract/public-paths.ts'
import { startGateway, type TestGateway } from './gateway.ts'
import { copyOfFixtureContent, type TempProject } from './project.ts'

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

export interface FullGatewayOptions {
  /** Content to build; default a copy of the repository's content (removed on close). */
  project?: TempProject
  /** Clients of the built-in issuer and the scopes each may ask for; secrets are generated. */
  clients?: Record<string, readonly Scope[]>
  /** API keys to create, by name; their plaintext is returned in `keys`. */
  keys?: Record<string, Role>
  /** Use this keys file instead of creating one (e.g. the committed one with the sandbox key). */
  keysFile?: string
  /** Settings, as environment variables (PUBLIC_URL, MCP_ALLOWED_ORIGINS, TRUST_PROXY, …), over the test's own files. */
  env?: Record<string, string>
  limits?: Partial<LimitSettings>
  /** People who may sign in, by name; scopes default to all nine. */
  people?: Record<string, { email: string; password: string; name?: string; scopes?: readonly Scope[] }>
  /** The clock and the outbound fetch of the gateway (e.g. CIMD documents served locally). */
  runtime?: Pick<SetupRuntime, 'now' | 'fetch'>
  /** Where the clients and keys files go; default the project root (a second gateway on one project needs its own). */
  filesDir?: string
  /** The state store's folder; default `.data` in the project (a second gateway may share the first's). */
  stateDir?: string
}

export interface FullGateway {
  gw: TestGateway
  store: ArtifactStore
  project: TempProject
  /** Every log line, debug level and up. */
  logs: string[]
  /** Plaintext API keys by the names given in `options.keys`. */
  keys: Record<string, string>
  /** Client secrets by client id. */
  secrets: Record<string, string>
  /** Ids of the people created from `options.people`, by name. */
  people: Record<string, string>
  /** The folder of the authorization server's state store. */
  stateDir: string
  /** A token from the token endpoint for `clientId` (default scopes: all the client may have). */
  token(clientId: string, scopes?: readonly string[]): Promise<string>
  close(): Promise<void>
}

export async function startFullGateway(options: FullGatewayOptions = {}): Promise<FullGateway> {
  const project = options.project ?? (await copyOfFixtureContent())
  await buildSite({ root: project.root, cache: false })
  const filesDir = options.filesDir ?? project.root
  await mkdir(filesDir, { recursive: true })
  const now = new Date().toISOString()
  const clients = options.clients ?? {}
  const secrets: Record<string, string> = {}
  await writeClientsFile(join(filesDir, 'clients.json'), {
    version: 1,
    clients: Object.entries(clients).map(([id, scopes]) => {
      secrets[id] = generateClientSecret()
      return {
        client_id: id,
        secret_hash: hashClientSecret(secrets[id]),
        scopes: [...scopes],
        label: `test ${id}`,
        created_at: now,
      }
    }),
  })
  const keys: Record<string, string> = {}
  let keysFile = options.keysFile
  if (!keysFile) {
    keysFile = join(filesDir, 'keys.json')
    const entries = Object.entries(options.keys ?? {}).map(([name, role]) => {
      keys[name] = generateApiKey(role === 'sandbox.read' ? 'sandbox' : 'live')
      return { id: newKeyId(), hash: hashApiKey(keys[name]), role, label: `test ${name}`, created_at: now }
    })
    await writeKeysFile(keysFile, { version: 1, keys: entries })
  }
  const stateDir = options.stateDir ?? join(project.root, '.data')
  const people: Record<string, string> = {}
  const directory = openPeople(openFileStore(stateDir))
  for (const [name, p] of Object.entries(options.people ?? {})) {
    people[name] = (
      await directory.create({
        email: p.email,
        name: p.name ?? name,
        password: p.password,
        scopes: p.scopes ?? SCOPE_NAMES,
      })
    ).id
  }
  const logs: string[] = []
  const logger = createLogger('debug', (line) => logs.push(line))
  const env = {
    KEYS_FILE: keysFile,
    OAUTH_CLIENTS_FILE: join(filesDir, 'clients.json'),
    OAUTH_STORE: 'files',
    OAUTH_STORE_DIR: stateDir,
    OAUTH_TOKEN_TTL: '600',
    ...options.env,
  }
  const config = readConfig(env, 'start', project.root)
  config.limits = { ...config.limits, ...options.limits }
  const store = new ArtifactStore(project.dist)
  await store.reload()
  let url = ''
  const setup = await gatewayOptions(config, store, {
    version: '0.0.0-test',
    logger,
    fallbackUrl: () => url,
    ...options.runtime,
  })
  const gw = await startGateway(project.dist, { ...setup, store })
  url = gw.url
  return {
    gw,
    store,
    project,
    logs,
    keys,
    secrets,
    people,
    stateDir,
    async token(clientId, scopes = clients[clientId] ?? []) {
      const res = await fetch(`${gw.url}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${secrets[clientId]}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          scope: scopes.join(' '),
          resource: `${config.publicUrl ?? gw.url}${MCP_PATH}`,
        }),
      })
      if (!res.ok) throw new Error(`token endpoint answered ${res.status}: ${await res.text()}`)
      return ((await res.json()) as { access_token: string }).access_token
    },
    async close() {
      await gw.close()
      if (!options.project) await project.remove()
    },
  }
}
