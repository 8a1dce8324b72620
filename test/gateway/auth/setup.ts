/**
 * A real gateway with the real auth plugin and guard, plus two protected test
 * routes standing in for future protected endpoints: `/mcp` (needs
 * mcp.tools.invoke; the MCP engineer's handler is not mounted here) and
 * `/test/api-read` (needs api.read). Logs are captured for the leak test.
 */
import { defineHandler } from 'h3'
import { buildSite } from '../../../build/compiler/build.ts'
import { createAuth, type Auth } from '../../../gateway/auth/auth.ts'
import type { AuthSettings } from '../../../gateway/auth/config.ts'
import { authPlugin } from '../../../gateway/auth/plugin.ts'
import { createLogger } from '../../../gateway/log.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { MCP_PATH } from '../../../contract/public-paths.ts'

export async function builtProject(): Promise<TempProject> {
  const project = await copyOfFixtureContent()
  await buildSite({ root: project.root })
  return project
}

export interface AuthGateway {
  gateway: TestGateway
  auth: Auth
  /** Every log line the gateway wrote, debug level and up. */
  logs: string[]
  url: string
}

export async function startAuthGateway(dist: string, settings: AuthSettings): Promise<AuthGateway> {
  const logs: string[] = []
  const logger = createLogger('debug', (line) => logs.push(line))
  let url = ''
  const auth = await createAuth(settings, { publicUrl: () => url, logger })
  const protectedRoutes = (app: Parameters<ReturnType<typeof authPlugin>>[0]) => {
    app.all(
      MCP_PATH,
      defineHandler(async (event) => principalBody(await auth.requireScope(event, 'mcp.tools.invoke'))),
    )
    app.all(
      '/test/api-read',
      defineHandler(async (event) => principalBody(await auth.requireScope(event, 'api.read'))),
    )
  }
  const gateway = await startGateway(dist, { logger, plugins: [authPlugin(auth), protectedRoutes] })
  url = gateway.url
  return { gateway, auth, logs, url }
}

function principalBody(p: Awaited<ReturnType<Auth['requireScope']>>) {
  return { kind: p.kind, subject: p.subject, client_id: p.clientId ?? null, role: p.role ?? null, scopes: p.scopes }
}

/** Parse `Bearer a="x", b="y"` into its parameters. */
export function challengeParams(header: string | null): Record<string, string> {
  expectBearer(header)
  const out: Record<string, string> = {}
  for (const m of header!.matchAll(/([a-z_]+)="([^"]*)"/g)) out[m[1]!] = m[2]!
  return out
}

function expectBearer(header: string | null): void {
  if (!header?.startsWith('Bearer ')) throw new Error(`expected a Bearer challenge, got ${header}`)
}
