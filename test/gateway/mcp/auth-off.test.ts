/**
 * MCP_AUTH=off (what the conformance suite runs against): refused by the
 * configuration unless the gateway listens on loopback, and /mcp then answers
 * only requests addressed to loopback, whatever PUBLIC_URL says.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { ArtifactStore } from '../../../gateway/artifacts.ts'
import { SettingsError } from '../../../contract/settings.ts'
import { readConfig } from '../../../gateway/config.ts'
import { mcpPlugin } from '../../../gateway/mcp/plugin.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { connectClient, INITIALIZE, MCP_HEADERS } from './setup.ts'
import { DEFAULT_LIMITS } from '../../../gateway/http/limits.ts'
import { MCP_PATH } from '../../../contract/public-paths.ts'

describe('the MCP_AUTH setting', () => {
  it('refuses MCP_AUTH=off on any address but loopback, naming the rule', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.10', 'api.example.com', '128.0.0.1']) {
      expect(() => readConfig({ MCP_AUTH: 'off', HOST }, 'start')).toThrow(SettingsError)
      expect(() => readConfig({ MCP_AUTH: 'off', HOST }, 'start')).toThrow(/loopback/)
    }
  })

  it('accepts MCP_AUTH=off on 127.0.0.0/8, ::1 and localhost, and defaults to on', () => {
    for (const HOST of ['127.0.0.1', '127.1.2.3', '::1', 'localhost', undefined]) {
      expect(readConfig({ MCP_AUTH: 'off', HOST }, 'start').mcpAuth).toBe('off')
    }
    expect(readConfig({}, 'start').mcpAuth).toBe('on')
    expect(() => readConfig({ MCP_AUTH: 'maybe' }, 'start')).toThrow(/MCP_AUTH must be on or off/)
    expect(() => readConfig({ MCP_ALLOWED_ORIGINS: 'app.example.com' }, 'start')).toThrow(/MCP_ALLOWED_ORIGINS/)
  })
})

describe('/mcp without the credential guard', () => {
  let project: TempProject
  let gw: TestGateway
  beforeAll(async () => {
    project = await copyOfFixtureContent()
    await buildSite({ root: project.root, cache: false })
    const store = new ArtifactStore(project.dist)
    await store.reload()
    const plugin = mcpPlugin({
      store,
      version: '0.0.0-test',
      auth: undefined,
      maxBodyBytes: DEFAULT_LIMITS.mcpBodyBytes,
      publicUrl: 'https://api.example.com',
      allowedOrigins: ['https://app.example.com'],
    })
    gw = await startGateway(project.dist, { store, plugins: [plugin] })
  })
  afterAll(async () => {
    await gw?.close()
    await project?.remove()
  })

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
    expect((await client.listTools()).tools.length).toBe(6)
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
