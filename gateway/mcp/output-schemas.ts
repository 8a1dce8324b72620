/**
 * The JSON Schema of each tool's output schema, converted once. The SDK
 * converts a registered tool's output schema on its first `tools/call` and
 * keeps it on that registration; a server is made for each request in
 * flight (server-pool.ts) and for every build, so without this each new
 * server converted the same zod schema again. The tools' schemas are made
 * once per content model (schemas.ts, `perModel`), so the conversion is kept
 * by schema object, and goes with it.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server'

const converted = new WeakMap<object, Record<string, unknown> | undefined>()

/** Hand `tool` the conversion an earlier server made of the same output schema, or make it and keep it. */
function reuseConversion(tool: RegisteredTool): RegisteredTool {
  const schema = tool.outputSchema
  if (schema === undefined) return tool
  if (converted.has(schema)) tool.outputSchemaJson = converted.get(schema)
  else converted.set(schema, tool.outputSchemaJson)
  return tool
}

/** Every tool `server` registers from now on reuses the conversion of its output schema. */
export function reuseOutputSchemas(server: McpServer): McpServer {
  const register = server.registerTool.bind(server) as (...args: unknown[]) => RegisteredTool
  server.registerTool = ((...args: unknown[]) => reuseConversion(register(...args))) as McpServer['registerTool']
  return server
}
