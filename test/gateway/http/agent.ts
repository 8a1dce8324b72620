/** What the gateway/http suites give their gateway: an agent client of the issuer, and an agent and a sandbox API key. */
import type { GatewayOptions } from '../../helpers/gateway.ts'

export const AGENT = {
  clients: { agent: ['mcp.tools.invoke', 'api.read'] },
  keys: { agent: 'agent.mcp', sandbox: 'sandbox.read' },
} as const satisfies GatewayOptions
