/**
 * The MCP Inspector CLI (@modelcontextprotocol/inspector, a devDependency,
 * run under Node 22 or later as it requires: helpers/supported-node.ts) against a real gateway: the
 * tool a developer or a CI job points at /mcp with an agent.mcp key in the
 * Authorization header, in both protocol eras it can negotiate.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { supportedNode } from '../../helpers/supported-node.ts'
import { startMcpGateway, type McpTestGateway } from './setup.ts'

const PACKAGE = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')
const { bin } = createRequire(import.meta.url)('@modelcontextprotocol/inspector/package.json') as {
  bin: Record<string, string>
}
const LAUNCHER = join(dirname(PACKAGE), bin['mcp-inspector']!)
const TOOLS = [
  'describe_content_model',
  'fetch',
  'get_content',
  'get_person',
  'list_content',
  'list_tags',
  'list_upcoming',
  'search',
  'search_content',
]

let t: McpTestGateway
let storage: string
beforeAll(async () => {
  t = await startMcpGateway()
  storage = await mkdtemp(join(tmpdir(), 'inspector-'))
})
afterAll(async () => {
  await t?.close()
  if (storage) await rm(storage, { recursive: true, force: true })
})

interface Run {
  code: number
  stdout: string
  stderr: string
}

/** One CLI run against /mcp; its catalog, client config and OAuth state live in a scratch folder, never in ~. */
async function inspector(args: string[]): Promise<Run> {
  const node = await supportedNode()
  const env = node.env({
    MCP_STORAGE_DIR: storage,
    MCP_INSPECTOR_OAUTH_STATE_PATH: join(storage, 'oauth.json'),
    MCP_CATALOG_PATH: join(storage, 'mcp.json'),
    MCP_CLIENT_CONFIG_PATH: join(storage, 'client.json'),
  })
  const argv = [LAUNCHER, '--cli', '--transport', 'http', '--server-url', `${t.url}/mcp`, '--format', 'json', ...args]
  return new Promise((resolve) => {
    execFile(node.execPath, argv, { env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      resolve({ code, stdout, stderr })
    })
  })
}

const bearer = () => ['--header', `Authorization: Bearer ${t.agentKey}`]

describe('the MCP Inspector CLI', () => {
  it.each([
    ['modern', '2026-07-28'],
    ['legacy', '2025-11-25'],
  ])(
    'lists the tools with an agent.mcp key in the Authorization header (protocol era %s, %s)',
    async (era, version) => {
      const probe = await inspector([...bearer(), '--protocol-era', era, '--method', 'initialize'])
      expect(probe.code, probe.stderr).toBe(0)
      expect(JSON.parse(probe.stdout)).toMatchObject({
        result: { protocolVersion: version, serverInfo: { name: 'content-api' } },
      })
      const run = await inspector([...bearer(), '--protocol-era', era, '--method', 'tools/list'])
      expect(run.code, run.stderr).toBe(0)
      const { result } = JSON.parse(run.stdout) as { result: { tools: { name: string }[] } }
      expect(result.tools.map((tool) => tool.name).sort()).toEqual(TOOLS)
    },
  )

  it('calls fetch, and reports an unknown id as a tool error (exit 5)', async () => {
    const found = await inspector([
      ...bearer(),
      '--protocol-era',
      'modern',
      '--method',
      'tools/call',
      '--tool-name',
      'fetch',
      '--tool-args-json',
      '{"id":"blog-posts/data-contracts-in-ci"}',
    ])
    expect(found.code, found.stderr).toBe(0)
    expect(JSON.parse(found.stdout)).toMatchObject({
      result: { structuredContent: { id: 'blog-posts/data-contracts-in-ci', text: expect.any(String) } },
    })
    const missing = await inspector([
      ...bearer(),
      '--protocol-era',
      'modern',
      '--method',
      'tools/call',
      '--tool-name',
      'fetch',
      '--tool-args-json',
      '{"id":"blog-posts/nope"}',
    ])
    expect(missing.code).toBe(5)
    expect(JSON.parse(missing.stdout)).toMatchObject({ result: { isError: true } })
  })

  it('stops with auth_required (exit 3) without a credential', async () => {
    const run = await inspector(['--protocol-era', 'modern', '--method', 'tools/list', '--stored-auth-only'])
    expect(run.code).toBe(3)
    expect(run.stderr).toContain('auth_required')
  })
})
