/**
 * The one way tests start the gateway: as production does, through
 * createGateway (gateway/gateway.ts) with settings read by the one schema,
 * listening on 127.0.0.1 with an ephemeral port. Every test gateway is the
 * whole one — REST, the credential routes with the embedded issuer, /mcp —
 * with its own clients, API keys, people and state store beside the build,
 * so tests can get real tokens and keys, and every log line captured; with
 * `platform.webhooks`, the webhook sender `npm start` runs too.
 */
import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Server } from 'node:http'
import { afterAll, beforeAll } from 'vitest'
import { buildSite } from '../../build/compiler/build.ts'
import { scopeNames, type Role, type Scope } from '../../contract/scopes.ts'
import { FIXTURE_MODEL } from './site.ts'
import { readSettings } from '../../contract/settings.ts'
import { MCP_PATH } from '../../contract/public-paths.ts'
import type { ArtifactStore } from '../../gateway/artifacts.ts'
import { generateApiKey, hashApiKey } from '../../gateway/auth/api-key.ts'
import { generateClientSecret, hashClientSecret, writeClientsFile } from '../../gateway/auth/issuer/clients-file.ts'
import { newKeyId, writeKeysFile } from '../../gateway/auth/keys-file.ts'
import { openPeople } from '../../gateway/auth/people/people.ts'
import { openFileStore } from '../../gateway/auth/store/file-store.ts'
import { createGateway, type Gateway, type Platform } from '../../gateway/gateway.ts'
import { createLogger } from '../../gateway/log.ts'
import { copyOfBuiltFixture, type TempProject } from './project.ts'

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

export interface GatewayOptions {
  /** Settings, as environment variables (PUBLIC_URL, RATE_LIMIT_PER_MINUTE, TRUST_PROXY, …), over the test's own files. */
  env?: Record<string, string>
  /** Clients of the built-in issuer and the scopes each may ask for; secrets are generated. */
  clients?: Record<string, readonly Scope[]>
  /** API keys to create, by name; their plaintext is returned in `keys`. */
  keys?: Record<string, Role>
  /** Use this keys file instead of creating one (one the keys CLI wrote). The published sandbox key needs none. */
  keysFile?: string
  /** Use this clients file instead of creating one from `clients`. */
  clientsFile?: string
  /** People who may sign in, by name; scopes default to all nine. */
  people?: Record<string, { email: string; password: string; name?: string; scopes?: readonly Scope[] }>
  /** What only the runtime knows: the clock, the issuer's outbound fetch, a store of its own, extra routes, webhooks. */
  platform?: Partial<Pick<Platform, 'now' | 'fetch' | 'store' | 'routes' | 'webhooks'>>
  /** Where the clients and keys files go; default beside the build (a second gateway on one build needs its own). */
  filesDir?: string
  /** The state store's folder; default `.data` beside the build (a second gateway may share the first's). */
  stateDir?: string
}

export interface TestGateway {
  url: string
  server: Server
  gateway: Gateway
  store: ArtifactStore
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
  /** A token from the token endpoint for `clientId` (default scopes: all the client may have), for /mcp. */
  token(clientId: string, scopes?: readonly string[]): Promise<string>
  close(): Promise<void>
}

/** Serve the build in `distDir` with the whole gateway. */
export async function startGateway(distDir: string, options: GatewayOptions = {}): Promise<TestGateway> {
  const filesDir = options.filesDir ?? dirname(distDir)
  await mkdir(filesDir, { recursive: true })
  const now = new Date().toISOString()
  const clients = options.clients ?? {}
  const secrets: Record<string, string> = {}
  const clientsFile = options.clientsFile ?? join(filesDir, 'clients.json')
  if (!options.clientsFile)
    await writeClientsFile(clientsFile, {
      version: 1,
      clients: Object.entries(clients).map(([id, scopes]) => {
        secrets[id] = generateClientSecret()
        const secret_hash = hashClientSecret(secrets[id])
        return { client_id: id, secret_hash, scopes: [...scopes], label: `test ${id}`, created_at: now }
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
  const stateDir = options.stateDir ?? join(filesDir, '.data')
  const people: Record<string, string> = {}
  const directory = openPeople(openFileStore(stateDir))
  for (const [name, p] of Object.entries(options.people ?? {})) {
    const scopes = p.scopes ?? scopeNames(FIXTURE_MODEL)
    people[name] = (await directory.create({ email: p.email, name: p.name ?? name, password: p.password, scopes })).id
  }
  const logs: string[] = []
  const settings = readSettings(
    {
      HOST: '127.0.0.1',
      PORT: '0',
      DIST_DIR: distDir,
      KEYS_FILE: keysFile,
      OAUTH_CLIENTS_FILE: clientsFile,
      STATE_STORE: 'files',
      OAUTH_STORE_DIR: stateDir,
      OAUTH_TOKEN_TTL: '600',
      ...options.env,
    },
    'start',
  )
  const gateway = await createGateway(settings, {
    root: filesDir,
    logger: createLogger('debug', (line) => logs.push(line)),
    ...options.platform,
  })
  const running = await gateway.listen()
  return {
    url: running.url,
    server: running.server,
    gateway,
    store: gateway.store,
    logs,
    keys,
    secrets,
    people,
    stateDir,
    async token(clientId, scopes = clients[clientId] ?? []) {
      const res = await fetch(`${running.url}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${secrets[clientId]}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          scope: scopes.join(' '),
          resource: `${gateway.publicUrl()}${MCP_PATH}`,
        }),
      })
      if (!res.ok) throw new Error(`token endpoint answered ${res.status}: ${await res.text()}`)
      return ((await res.json()) as { access_token: string }).access_token
    },
    close: () => gateway.close(),
  }
}

export interface BuiltGateway extends TestGateway {
  project: TempProject
}

/**
 * Build `project` (default: a copy of the test fixture content with the dist/
 * the global set-up built from it, which the build finds up to date; removed
 * on close) and serve it with the whole gateway.
 */
export async function startBuiltGateway(
  options: GatewayOptions & { project?: TempProject } = {},
): Promise<BuiltGateway> {
  const project = options.project ?? (await copyOfBuiltFixture())
  await buildSite({ root: project.root })
  const gateway = await startGateway(project.dist, { filesDir: project.root, ...options })
  return {
    ...gateway,
    project,
    async close() {
      await gateway.close()
      if (!options.project) await project.remove()
    },
  }
}

/**
 * For one describe block (or file): build the project `makeProject` gives and
 * serve it; afterwards close the server and remove the project.
 *
 * @example const ctx = useBuiltGateway(copyOfFixtureContent); fetch(`${ctx.gateway.url}/api/health`)
 */
export function useBuiltGateway(
  makeProject: () => Promise<TempProject>,
  options: GatewayOptions = {},
): { readonly project: TempProject; readonly gateway: TestGateway } {
  let built: BuiltGateway | undefined
  beforeAll(async () => {
    built = await startBuiltGateway({ ...options, project: await makeProject() })
  })
  afterAll(async () => {
    await built?.close()
    await built?.project.remove()
  })
  return {
    get project() {
      return built!.project
    },
    get gateway() {
      return built!
    },
  }
}
