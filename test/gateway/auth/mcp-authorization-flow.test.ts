/**
 * The MCP authorization flow as agent hosts run it, with the MCP SDK's own
 * client (v1) against the whole gateway: a 401 at /mcp, discovery from the
 * challenge (RFC 9728, then RFC 8414), client registration — Dynamic Client
 * Registration, or a Client ID Metadata Document — then sign-in and consent
 * in Chromium, the code exchanged with PKCE, and tools listed with a token
 * bound to /mcp. The pages are used by label and keyboard, as a person would.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js'
import { decodeJwt } from 'jose'
import type { Browser } from 'playwright-core'
import { connectChromium } from '../../helpers/chromium.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltGateway, type BuiltGateway } from '../../helpers/gateway.ts'

const GRACE = { email: 'grace@example.com', password: 'compile the first compiler', name: 'Grace Hopper' }
/** The host of the client's metadata document; the test's fetch serves it from a local server. */
const CLIENT_HOST = 'https://client.example.test'

let t: BuiltGateway
let browser: Browser
let callback: { server: Server; url: string; codes: string[] }

/** The agent host's redirect target: records the code it is sent. */
async function startCallbackServer() {
  const codes: string[] = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname === '/client.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' })
      res.end(JSON.stringify(metadataDocument()))
      return
    }
    const code = url.searchParams.get('code')
    if (code) codes.push(code)
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end('<!doctype html><title>Connected</title><p>You can close this window.</p>')
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, codes }
}

const redirectUrl = () => `${callback.url}/callback`
const metadataDocument = () => ({
  client_id: `${CLIENT_HOST}/client.json`,
  client_name: 'Metadata document agent',
  redirect_uris: [redirectUrl()],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
})

beforeAll(async () => {
  callback = await startCallbackServer()
  t = await startBuiltGateway({
    people: { grace: GRACE },
    platform: {
      // Stands in for DNS and TLS: the metadata document's https host is served locally.
      fetch: (url, init) => {
        const target = new URL(url instanceof Request ? url.url : url)
        if (target.origin !== CLIENT_HOST) return fetch(url, init)
        const { dispatcher: _dispatcher, ...rest } = init as RequestInit & { dispatcher?: unknown }
        return fetch(`${callback.url}${target.pathname}`, rest)
      },
    },
  })
  browser = await connectChromium()
})
afterAll(async () => {
  await browser?.close()
  await t?.close()
  await new Promise((done) => callback?.server.close(done))
})

/** An agent host's OAuth state, in memory; `authorizationUrl` is where it would open the browser. */
class AgentHost implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ''
  authorizationUrl: URL | undefined
  constructor(readonly clientMetadataUrl?: string) {}
  get redirectUrl() {
    return redirectUrl()
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MCP flow test',
      redirect_uris: [redirectUrl()],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }
  clientInformation() {
    return this.information
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.information = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

/** Sign in and allow in Chromium, with the keyboard; returns the code the host received and the consent page's text. */
async function signInAndAllow(authorizationUrl: URL): Promise<{ code: string; consentText: string }> {
  const page = await browser.newPage()
  const foreign: string[] = []
  const gateway = new URL(t.url).origin
  page.on('request', (r) => {
    const origin = new URL(r.url()).origin
    if (origin !== gateway && origin !== callback.url) foreign.push(r.url())
  })
  try {
    await page.goto(authorizationUrl.href)
    await expect.poll(() => page.title(), { timeout: 20_000 }).toBe('Sign in')
    const email = page.getByLabel('Email address')
    expect(await email.getAttribute('type')).toBe('email')
    expect(await page.getByLabel('Password').getAttribute('type')).toBe('password')
    await email.focus()
    await page.keyboard.type(GRACE.email)
    await page.keyboard.press('Tab')
    await page.keyboard.type(GRACE.password)
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/oauth\/interaction\//)
    await expect.poll(() => page.title(), { timeout: 20_000 }).toBe('Allow access?')
    const consentText = await page.locator('main').innerText()
    await page.getByRole('button', { name: 'Allow' }).focus()
    const before = callback.codes.length
    await page.keyboard.press('Enter')
    await page.waitForURL(`${redirectUrl()}?**`)
    expect(foreign).toEqual([])
    expect(callback.codes.length).toBe(before + 1)
    return { code: callback.codes.at(-1)!, consentText }
  } finally {
    await page.close()
  }
}

async function listToolsAfterAuthorization(host: AgentHost) {
  const mcpUrl = new URL(`${t.url}/mcp`)
  const first = new Client({ name: 'flow-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: host })
  // No token yet: the 401 starts the flow, which stops where a browser must take over.
  await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
  expect(host.authorizationUrl?.origin).toBe(new URL(t.url).origin)
  expect(host.authorizationUrl?.searchParams.get('resource')).toBe(`${t.url}/mcp`)
  expect(host.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256')
  const { code, consentText } = await signInAndAllow(host.authorizationUrl!)
  await transport.finishAuth(code)

  const client = new Client({ name: 'flow-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: host }))
  const { tools } = await client.listTools()
  await client.close()
  return { tools, consentText }
}

describe('the MCP SDK client from a 401 at /mcp to a tool list', () => {
  it('registers dynamically, signs in, consents and lists tools with a token for /mcp', async () => {
    const host = new AgentHost()
    const { tools, consentText } = await listToolsAfterAuthorization(host)
    expect(tools.some((tool) => tool.name.startsWith('search'))).toBe(true)
    expect(host.information?.client_id).toMatch(/^reg_/)
    expect(consentText).toContain('MCP flow test')
    expect(consentText).toContain('Connect an agent to /mcp and call its tools')
    expect(consentText).toContain(GRACE.name)
    const access = decodeJwt(host.saved!.access_token)
    expect(access).toMatchObject({
      iss: t.url,
      aud: `${t.url}/mcp`,
      sub: t.people.grace,
      scope: 'mcp.tools.invoke',
    })
    expect(host.saved?.refresh_token).toEqual(expect.any(String))
  })

  it('uses a Client ID Metadata Document when the host publishes one', async () => {
    const host = new AgentHost(`${CLIENT_HOST}/client.json`)
    const { tools, consentText } = await listToolsAfterAuthorization(host)
    expect(tools.length).toBeGreaterThan(0)
    expect(host.information?.client_id).toBe(`${CLIENT_HOST}/client.json`)
    // The page names the client and where its metadata really lives.
    expect(consentText).toContain('Metadata document agent (client.example.test)')
    expect(decodeJwt(host.saved!.access_token)).toMatchObject({
      aud: `${t.url}/mcp`,
      client_id: `${CLIENT_HOST}/client.json`,
      scope: 'mcp.tools.invoke',
    })
  })

  it('refreshes the token through the SDK when the access token is gone', async () => {
    const host = new AgentHost()
    await listToolsAfterAuthorization(host)
    const before = host.saved!
    host.saved = { ...before, access_token: 'expired' }
    const client = new Client({ name: 'flow-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { authProvider: host }))
    expect((await client.listTools()).tools.length).toBeGreaterThan(0)
    await client.close()
    expect(host.saved.access_token).not.toBe('expired')
    expect(host.saved.refresh_token).not.toBe(before.refresh_token)
  })
})
