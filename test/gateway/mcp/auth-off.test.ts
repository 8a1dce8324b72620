/**
 * MCP_AUTH=off (what the conformance suite runs against): refused by the
 * configuration unless the gateway listens on loopback, and /mcp then answers
 * only requests addressed to loopback, whatever PUBLIC_URL says.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSettings, SettingsError, type Settings } from '../../../contract/settings.ts'
import { checkSettings } from '../../../gateway/config.ts'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'
import { connectClient, INITIALIZE, MCP_HEADERS } from './setup.ts'
import { MCP_PATH } from '../../../contract/public-paths.ts'

/** The settings of `env` as the gateway takes them (each valid, and valid together). */
function checked(env: Record<string, string | undefined>): Settings {
  const settings = readSettings(env, 'start')
  checkSettings(settings)
  return settings
}

describe('the MCP_AUTH setting', () => {
  it('refuses MCP_AUTH=off on any address but loopback, naming the rule', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.10', 'api.example.com', '128.0.0.1']) {
      expect(() => checked({ MCP_AUTH: 'off', HOST })).toThrow(SettingsError)
      expect(() => checked({ MCP_AUTH: 'off', HOST })).toThrow(/loopback/)
    }
    // Without PUBLIC_URL as well: both rules named in one run, a line each.
    let error: unknown
    try {
      checked({ MCP_AUTH: 'off', HOST: '0.0.0.0' })
    } catch (e) {
      error = e
    }
    expect((error as SettingsError).lines().map((l) => l.split(' ')[0])).toEqual(['MCP_AUTH=off', '✗'])
    expect((error as SettingsError).lines()[1]).toMatch(/^✗ PUBLIC_URL must be set/)
  })

  it('accepts MCP_AUTH=off on 127.0.0.0/8, ::1 and localhost, and defaults to on', () => {
    for (const HOST of ['127.0.0.1', '127.1.2.3', '::1', 'localhost', undefined]) {
      expect(checked({ MCP_AUTH: 'off', HOST }).MCP_AUTH).toBe('off')
    }
    expect(checked({}).MCP_AUTH).toBe('on')
    expect(() => checked({ MCP_AUTH: 'maybe' })).toThrow(/MCP_AUTH must be on or off/)
    expect(() => checked({ MCP_ALLOWED_ORIGINS: 'app.example.com' })).toThrow(/MCP_ALLOWED_ORIGINS/)
  })
})

describe('/mcp without the credential guard', () => {
  let gw: BuiltGateway
  beforeAll(async () => {
    gw = await startBuiltGateway({
      env: { MCP_AUTH: 'off', PUBLIC_URL: 'https://api.example.com', MCP_ALLOWED_ORIGINS: 'https://app.example.com' },
    })
  })
  afterAll(() => gw?.close())

  function post(headers: Record<string, string>): Promise<number> {
    const url = new URL(gw.url)
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: MCP_PATH, method: 'POST', headers: { ...MCP_HEADERS, ...headers } },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode!))
        },
      )
      req.on('error', reject)
      req.end(INITIALIZE)
    })
  }

  it('serves a client with no credential', async () => {
    const client = await connectClient(gw.url)
    expect((await client.listTools()).tools.length).toBe(9)
    await client.close()
  })

  it('answers requests to loopback only, even for the public host and the configured origins', async () => {
    const port = new URL(gw.url).port
    expect(await post({ host: `127.0.0.1:${port}` })).toBe(200)
    expect(await post({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(200)
    expect(await post({ host: 'api.example.com' })).toBe(403)
    expect(await post({ host: `localhost:${port}`, origin: 'https://app.example.com' })).toBe(403)
    expect(await post({ host: 'evil.example.com', origin: 'http://evil.example.com' })).toBe(403)
  })
})
