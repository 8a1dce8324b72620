/**
 * What the credential suites add to the whole gateway (helpers/gateway.ts):
 * two routes standing in for protected endpoints that answer with the
 * principal the guard found — one under /mcp (mcp.tools.invoke, the MCP
 * resource's challenge) and one needing api.read, which no real route needs
 * yet — mounted the way the dev server mounts its preview.
 */
import { defineHandler, type H3 } from 'h3'
import type { Principal } from '../../../gateway/auth/guard.ts'
import type { Gateway } from '../../../gateway/gateway.ts'
import { buildSite } from '../../../build/compiler/build.ts'
import { MCP_PATH } from '../../../contract/public-paths.ts'
import type { Scope } from '../../../contract/scopes.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'

/** The stand-ins: the principal of a credential holding the scope, or the guard's 401/403/503. */
export const GUARDED: Record<'mcp' | 'apiRead', { path: string; scope: Scope }> = {
  mcp: { path: `${MCP_PATH}/principal`, scope: 'mcp.tools.invoke' },
  apiRead: { path: '/test/api-read', scope: 'api.read' },
}

/** The routes, for `platform.routes`; `gateway` gives the gateway they belong to once it is made. */
export function guardedRoutes(gateway: () => Gateway): (app: H3) => void {
  return (app) => {
    for (const { path, scope } of Object.values(GUARDED))
      app.all(
        path,
        defineHandler(async (event) => principalBody(await gateway().auth!.requireScope(event, scope))),
      )
  }
}

export async function builtProject(): Promise<TempProject> {
  const project = await copyOfFixtureContent()
  await buildSite({ root: project.root })
  return project
}

function principalBody(p: Principal) {
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
