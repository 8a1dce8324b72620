/** MCP tools/call search end to end. Pending until /mcp and its API keys are served by gateway/serve.ts. */
export async function benchMcp(_root: string, _runs: number): Promise<{ gateway: number[]; ceiling: number[] } | string> {
  return 'pending: /mcp is not served yet'
}
