/**
 * The external issuer's JWKS failing in the ways networks fail — down,
 * erroring, slow, or answering garbage — while the gateway verifies real
 * tokens from a real issuer (oidc-provider): 503 with a problem body, never a
 * 500 and never a pass, and recovery as soon as the JWKS is back. A fault
 * injector sits between the gateway and the issuer's real JWKS.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { startTestIssuer, type TestIssuer } from './oidc-issuer.ts'
import { MCP_HEADERS, startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { copyOfFixtureContent, type TempProject } from '../../helpers/project.ts'
import { problemDefect } from '../../helpers/problem-assert.ts'
import { until } from '../../helpers/until.ts'

type Mode = 'ok' | 'down' | 'error' | 'slow' | 'not-json' | 'html' | 'wrong-shape'

/** Relays the issuer's real JWKS, or fails in the chosen way. */
class JwksFaults {
  mode: Mode = 'ok'
  fetches = 0
  private server: Server = createServer((req, res) => {
    this.fetches++
    const relay = async () => {
      const upstream = await fetch(`${this.issuer}/jwks`)
      res.writeHead(200, { 'content-type': 'application/json' }).end(await upstream.text())
    }
    switch (this.mode) {
      case 'ok':
        return void relay()
      case 'down':
        return void req.socket.destroy()
      case 'error':
        return void res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded')
      case 'slow':
        return void setTimeout(() => void relay().catch(() => {}), 3_000)
      case 'not-json':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys": [')
      case 'html':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Maintenance</body></html>')
      case 'wrong-shape':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":"none"}')
    }
  })
  constructor(private readonly issuer: string) {}
  async start(): Promise<string> {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done))
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/jwks`
  }
  close(): Promise<void> {
    return new Promise((done) => {
      this.server.close(() => done())
      this.server.closeAllConnections()
    })
  }
}

let project: TempProject
let issuer: TestIssuer
let faults: JwksFaults
let jwksUrl: string
let gateway: TestGateway | undefined

beforeAll(async () => {
  ;[project, issuer] = await Promise.all([copyOfFixtureContent(), startTestIssuer()])
  await buildSite({ root: project.root })
  faults = new JwksFaults(issuer.issuer)
  jwksUrl = await faults.start()
})
afterEach(async () => {
  await gateway?.close()
  gateway = undefined
})
afterAll(async () => {
  await faults?.close()
  await issuer?.close()
  await project?.remove()
})

/** A fresh gateway (no keys cached yet) verifying the issuer's tokens through the fault injector. */
async function start(requestTimeoutMs = 10_000): Promise<TestGateway> {
  gateway = await startGateway(project.dist, {
    env: {
      OAUTH_ISSUER: issuer.issuer,
      OAUTH_JWKS_URL: jwksUrl,
      REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
      RATE_LIMIT_PER_MINUTE: '0',
    },
  })
  return gateway
}

async function callMcp(gw: TestGateway, token: string): Promise<{ status: number; type?: string; text: string }> {
  const res = await fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  })
  const text = await res.text()
  if (res.status >= 400) expect(problemDefect(res.status, res.headers.get('content-type'), text)).toBeUndefined()
  return { status: res.status, type: res.status >= 400 ? (JSON.parse(text) as { type: string }).type : undefined, text }
}

const eventually = (check: () => Promise<boolean>, what: string) => until(check, { what, everyMs: 250 })

describe('issuer JWKS faults', () => {
  it.each<Mode>(['down', 'error', 'not-json', 'html', 'wrong-shape'])(
    'JWKS %s: 503 unavailable problem, then recovery when it returns',
    async (mode) => {
      const gw = await start()
      const token = await issuer.token({ scope: 'mcp.tools.invoke', resource: `${gw.url}/mcp` })
      faults.mode = mode
      for (let i = 0; i < 2; i++) {
        const answer = await callMcp(gw, token)
        expect(answer.status).toBe(503)
        expect(answer.type).toBe('/problems/unavailable')
      }
      faults.mode = 'ok'
      await eventually(async () => (await callMcp(gw, token)).status === 200, 'the gateway to verify tokens again')
    },
  )

  it('JWKS slow: the request timeout answers 503 instead of hanging, and it recovers', async () => {
    const gw = await start(1_000)
    const token = await issuer.token({ scope: 'mcp.tools.invoke', resource: `${gw.url}/mcp` })
    faults.mode = 'slow'
    const answer = await callMcp(gw, token)
    expect(answer.status).toBe(503)
    expect(['/problems/timeout', '/problems/unavailable']).toContain(answer.type)
    faults.mode = 'ok'
    await eventually(async () => (await callMcp(gw, token)).status === 200, 'the gateway to verify tokens again')
  })

  it('keys already fetched keep working while the JWKS is down; a forged token is still refused', async () => {
    const gw = await start()
    const token = await issuer.token({ scope: 'mcp.tools.invoke', resource: `${gw.url}/mcp` })
    faults.mode = 'ok'
    expect((await callMcp(gw, token)).status).toBe(200)
    faults.mode = 'down'
    expect((await callMcp(gw, token)).status).toBe(200)
    const [h, p] = token.split('.')
    const forged = await callMcp(gw, `${h}.${p}.${'A'.repeat(86)}`)
    expect(forged.status).toBe(401)
    faults.mode = 'ok'
  })
})
