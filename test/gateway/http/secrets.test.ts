/**
 * Secrets never reach the logs: every JSON log line the gateway writes, at
 * debug level, while requests carry API keys, OAuth tokens and client secrets
 * (valid, invalid, rate-limited, oversized, on every kind of route), is
 * searched for those secrets. Error answers never echo them either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_HEADERS, startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { AGENT } from './agent.ts'
import { MCP_PATH, TOKEN_PATH } from '../../../contract/public-paths.ts'

let t: BuiltGateway
const answers: string[] = []

beforeAll(async () => {
  t = await startBuiltGateway({
    ...AGENT,
    env: { RATE_LIMIT_PER_MINUTE: '15', MCP_MAX_BODY_BYTES: '4096' },
  })
})
afterAll(() => t?.close())

async function send(path: string, init: RequestInit): Promise<Response> {
  const res = await fetch(`${t.url}${path}`, init)
  const text = await res.clone().text()
  if (path !== TOKEN_PATH || res.status !== 200) answers.push(text, JSON.stringify([...res.headers]))
  return res
}

describe('secrets in logs', () => {
  it('no API key, token, client secret or Basic credential appears in any log line or error answer', async () => {
    const basic = Buffer.from(`agent:${t.secrets.agent!}`).toString('base64')
    const wrongBasic = Buffer.from(`agent:${t.secrets.agent!}x`).toString('base64')
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    const token = await t.token('agent', ['mcp.tools.invoke'])
    const signature = token.split('.')[2]!
    const mcp = (authorization: string, body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) =>
      send(MCP_PATH, { method: 'POST', headers: { ...MCP_HEADERS, authorization }, body })

    await send(TOKEN_PATH, {
      method: 'POST',
      headers: { ...form, authorization: `Basic ${basic}` },
      body: 'grant_type=client_credentials&scope=mcp.tools.invoke',
    })
    await send(TOKEN_PATH, {
      method: 'POST',
      headers: { ...form, authorization: `Basic ${wrongBasic}` },
      body: 'grant_type=client_credentials',
    })
    await send(TOKEN_PATH, {
      method: 'POST',
      headers: form,
      body: `grant_type=client_credentials&client_id=agent&client_secret=${t.secrets.agent!}`,
    })
    await send(TOKEN_PATH, {
      method: 'POST',
      headers: form,
      body: `grant_type=password&client_id=agent&client_secret=${t.secrets.agent!}&username=a&password=${t.secrets.agent!}`,
    })
    for (const credential of [token, t.keys.agent!, t.keys.sandbox!, `${t.keys.agent!}x`, `${token.slice(0, -3)}abc`]) {
      await mcp(`Bearer ${credential}`)
      await send('/api/blog-posts?limit=2', { headers: { authorization: `Bearer ${credential}` } })
      await send('/api/nope', { headers: { authorization: `Bearer ${credential}` } })
    }
    await mcp(`Basic ${basic}`)
    await mcp(
      `Bearer ${t.keys.agent!}`,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'p'.repeat(5000) } }),
    )
    await mcp(`Bearer ${t.keys.agent!}`, '{"jsonrpc": "2.0", "id": 3, "method": tools/call}')
    // Past the rate limit (15 a minute), so the 429 path is logged too.
    let limited = 0
    for (let i = 0; i < 12; i++) if ((await mcp(`Bearer ${token}`)).status === 429) limited++
    expect(limited).toBeGreaterThan(0)

    const secrets = {
      'agent API key': t.keys.agent!,
      'sandbox API key': t.keys.sandbox!,
      'client secret': t.secrets.agent!,
      'Basic credential': basic,
      'wrong Basic credential': wrongBasic,
      'access token': token,
      'access token signature': signature,
    }
    // The logs are real and cover these requests (a test that cannot fail is a defect).
    const requestLines = t.logs.filter((l) => l.includes('"msg":"request"'))
    expect(requestLines.length).toBeGreaterThan(30)
    for (const [what, secret] of Object.entries(secrets)) {
      expect(
        t.logs.filter((line) => line.includes(secret)),
        `${what} in the logs`,
      ).toEqual([])
      expect(
        answers.filter((a) => a.includes(secret)),
        `${what} echoed in an answer`,
      ).toEqual([])
    }
  })
})
