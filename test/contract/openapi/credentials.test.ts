import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SANDBOX_KEY } from '../../../contract/sandbox.ts'
import { hashApiKey, isWellFormedApiKey } from '../../../gateway/auth/api-key.ts'
import { SANDBOX_KEY_ENTRY } from '../../../gateway/auth/sandbox.ts'
import { assertMatchesContract } from '../../helpers/contract.ts'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { scopeNames } from '../../../contract/scopes.ts'
import { FIXTURE_MODEL } from '../../helpers/site.ts'
import { MCP_PATH, TOKEN_PATH } from '../../../contract/public-paths.ts'

let full: BuiltGateway
beforeAll(async () => {
  // No API keys but the published sandbox key (built in), and a client allowed every scope.
  full = await startBuiltGateway({ clients: { discovery: scopeNames(FIXTURE_MODEL) } })
})
afterAll(() => full?.close())

async function call(method: string, path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${full.url}${path}`, { ...init, method })
  await assertMatchesContract(method, path, response)
  return response
}

async function token(scope: string): Promise<string> {
  const response = await call('POST', TOKEN_PATH, {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`discovery:${full.secrets.discovery!}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { access_token: string }).access_token
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'contract', version: '1' } },
})

describe('the published sandbox key', () => {
  it('is a well-formed key the gateway knows with the sandbox.read role, with no keys file', async () => {
    expect(isWellFormedApiKey(SANDBOX_KEY)).toBe(true)
    expect(SANDBOX_KEY_ENTRY).toMatchObject({ hash: hashApiKey(SANDBOX_KEY), role: 'sandbox.read' })
  })

  it('gives the same bytes as no credential on a public read', async () => {
    const anonymous = await call('GET', '/api/case-studies?limit=3')
    const withKey = await call('GET', '/api/case-studies?limit=3', {
      headers: { authorization: `Bearer ${SANDBOX_KEY}` },
    })
    expect(withKey.status).toBe(200)
    expect(await withKey.text()).toBe(await anonymous.text())
  })
})

describe('contract: token endpoint and /mcp', () => {
  it('token endpoint: 200, 400 and 401 answers', async () => {
    await token('api.read')
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    expect(
      (
        await call('POST', TOKEN_PATH, {
          headers: form,
          body: 'grant_type=password&client_id=nobody&client_secret=x',
        })
      ).status,
    ).toBe(401)
    expect((await call('POST', TOKEN_PATH, { headers: form, body: 'grant_type=password' })).status).toBe(400)
    const basic = `Basic ${Buffer.from(`discovery:${full.secrets.discovery!}`).toString('base64')}`
    expect(
      (await call('POST', TOKEN_PATH, { headers: { ...form, authorization: basic }, body: 'grant_type=password' }))
        .status,
    ).toBe(400)
    expect(
      (
        await call('POST', TOKEN_PATH, {
          headers: { ...form, authorization: basic },
          body: 'grant_type=client_credentials&scope=nope',
        })
      ).status,
    ).toBe(400)
  })

  it('/mcp: 401 without a credential, 403 with the sandbox key, 405 on GET and DELETE, 200 with a token', async () => {
    expect((await call('POST', MCP_PATH, { headers: MCP_HEADERS, body: INITIALIZE })).status).toBe(401)
    expect(
      (
        await call('POST', MCP_PATH, {
          headers: { ...MCP_HEADERS, authorization: `Bearer ${SANDBOX_KEY}` },
          body: INITIALIZE,
        })
      ).status,
    ).toBe(403)
    expect((await call('GET', MCP_PATH)).status).toBe(405)
    expect((await call('DELETE', MCP_PATH)).status).toBe(405)
    const bearer = await token('mcp.tools.invoke')
    expect(
      (
        await call('POST', MCP_PATH, {
          headers: { ...MCP_HEADERS, authorization: `Bearer ${bearer}` },
          body: INITIALIZE,
        })
      ).status,
    ).toBe(200)
  })

  it('llms-full.txt names every MCP tool the server lists', async () => {
    const client = new Client({ name: 'contract', version: '1' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${full.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${await token('mcp.tools.invoke')}` } },
      }),
    )
    const { tools } = await client.listTools()
    await client.close()
    const reference = await (await fetch(`${full.url}/llms-full.txt`)).text()
    expect(tools.length).toBeGreaterThan(0)
    for (const tool of tools) expect(reference).toContain(`\`${tool.name}\``)
  })
})
