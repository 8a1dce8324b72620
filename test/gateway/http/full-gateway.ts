/**
 * The whole gateway as `npm start` mounts it — REST, the credential routes
 * with the built-in issuer, /mcp — on a build of the repository's content,
 * with its JSON log lines captured and limits chosen by the test.
 */
import type { LimitSettings } from '../../../gateway/http/limits.ts'
import { MCP_HEADERS, startFullGateway as start } from '../../helpers/full-gateway.ts'
import type { TestGateway } from '../../helpers/gateway.ts'
import type { TempProject } from '../../helpers/project.ts'

export { MCP_HEADERS }

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

export async function startFullGateway(
  limits: Partial<LimitSettings> = {},
  project?: TempProject,
): Promise<FullGateway> {
  const full = await start({
    project,
    limits,
    clients: { agent: ['mcp.tools.invoke', 'api.read'] },
    keys: { agent: 'agent.mcp', sandbox: 'sandbox.read' },
  })
  return {
    gw: full.gw,
    project: full.project,
    logs: full.logs,
    agentKey: full.keys.agent!,
    sandboxKey: full.keys.sandbox!,
    clientId: 'agent',
    clientSecret: full.secrets.agent!,
    token: () => full.token('agent', ['mcp.tools.invoke']),
    close: full.close,
  }
}
