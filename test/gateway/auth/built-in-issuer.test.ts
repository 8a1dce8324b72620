/**
 * The embedded default end to end: the built-in issuer's token endpoint over
 * real HTTP (form-encoded, as the curl example of docs/api.md), its tokens on
 * protected routes, its discovery documents, the documented sandbox key and
 * client, and public reads that ignore credentials.
 */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SIGNING_KEY_FILE, loadSigningKey } from '../../../gateway/auth/issuer/signing-key.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { SANDBOX_CLIENT, SANDBOX_KEY } from '../../../contract/sandbox.ts'
import { REPO_ROOT, type TempProject } from '../../helpers/project.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { builtProject, challengeParams, GUARDED, guardedRoutes } from './setup.ts'
import { MCP_PATH } from '../../../contract/public-paths.ts'

let project: TempProject
let gw: TestGateway
let agent: { id: string; secret: string }
/** Every secret and token the tests handle, for the leak check at the end. */
const secrets: string[] = []
const files = () => ({
  keys: join(project.root, 'keys.json'),
  clients: join(project.root, 'clients.json'),
  signingKey: join(project.root, DEFAULT_SIGNING_KEY_FILE),
})

async function cli(...args: string[]): Promise<string> {
  const out: string[] = []
  expect(
    await runKeysCli(args, {
      env: { KEYS_FILE: files().keys, OAUTH_CLIENTS_FILE: files().clients },
      cwd: project.root,
      out: (l) => out.push(l),
      err: () => {},
    }),
  ).toBe(0)
  return out.join('\n')
}

beforeAll(async () => {
  project = await builtProject()
  // No keys or clients file of the repository's: the sandbox credentials are built in.
  agent = {
    id: 'test-agent',
    secret: await cli(
      'client',
      'create',
      '--id',
      'test-agent',
      '--scopes',
      'mcp.tools.invoke api.read',
      '--label',
      'an agent',
    ),
  }
  secrets.push(SANDBOX_KEY, SANDBOX_CLIENT.secret, agent.secret)
  secrets.push(await cli('create', '--role', 'agent.mcp', '--label', 'a key at rest'))
  gw = await startGateway(project.dist, {
    keysFile: files().keys,
    clientsFile: files().clients,
    env: { OAUTH_TOKEN_TTL: '3600' },
    platform: { routes: [guardedRoutes(() => gw.gateway)] },
  })
})
afterAll(async () => {
  await gw?.close()
  await project?.remove()
})

/** POST /oauth/token with a form-encoded body, exactly what `curl -d a=b -d c=d` sends. */
async function tokenRequest(form: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${gw.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: form,
  })
  const body = (await res.json()) as Record<string, string>
  if (body.access_token) secrets.push(body.access_token)
  return { res, body }
}
const form = (params: Record<string, string>) => new URLSearchParams(params).toString()
const sandboxForm = (extra: Record<string, string> = {}) =>
  form({
    grant_type: 'client_credentials',
    client_id: SANDBOX_CLIENT.id,
    client_secret: SANDBOX_CLIENT.secret,
    ...extra,
  })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('token endpoint', () => {
  it('issues a token for the example of docs/api.md that the gateway accepts', async () => {
    const { res, body } = await tokenRequest(sandboxForm({ scope: 'api.read' }))
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'api.read' })
    expect(decodeProtectedHeader(body.access_token!)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' })
    expect(decodeJwt(body.access_token!)).toMatchObject({
      iss: gw.url,
      aud: gw.url,
      sub: 'sandbox',
      client_id: 'sandbox',
      scope: 'api.read',
    })
    const ok = await fetch(`${gw.url}${GUARDED.apiRead.path}`, { headers: bearer(body.access_token!) })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ kind: 'oauth', client_id: 'sandbox', scopes: ['api.read'] })
    expect((await fetch(`${gw.url}/mcp`, { method: 'POST', headers: bearer(body.access_token!) })).status).toBe(403)
  })

  it('documents that example in docs/api.md', async () => {
    const page = await readFile(join(REPO_ROOT, 'docs/api.md'), 'utf8')
    expect(page).toContain(`client_secret=${SANDBOX_CLIENT.secret}`)
    expect(page).toContain(SANDBOX_KEY)
  })

  it('gives a client its allowed scopes, for the resource it names, with HTTP Basic too', async () => {
    const basic = `Basic ${Buffer.from(`${agent.id}:${agent.secret}`).toString('base64')}`
    const { res, body } = await tokenRequest(
      form({ grant_type: 'client_credentials', scope: 'mcp.tools.invoke', resource: `${gw.url}/mcp` }),
      { authorization: basic },
    )
    expect(res.status).toBe(200)
    expect(decodeJwt(body.access_token!).aud).toBe(`${gw.url}/mcp`)
    const res2 = await fetch(`${gw.url}${GUARDED.mcp.path}`, { method: 'POST', headers: bearer(body.access_token!) })
    expect(res2.status).toBe(200)
    expect(await res2.json()).toMatchObject({ kind: 'oauth', client_id: 'test-agent', scopes: ['mcp.tools.invoke'] })
    // No scope asked: all the client may have.
    const all = await tokenRequest(
      form({ grant_type: 'client_credentials', client_id: agent.id, client_secret: agent.secret }),
    )
    expect(all.body.scope).toBe('mcp.tools.invoke api.read')
  })

  it.each([
    ['a scope the client may not have', sandboxForm({ scope: 'mcp.tools.invoke' }), 400, 'invalid_scope'],
    ['an unknown scope', sandboxForm({ scope: 'api.read admin' }), 400, 'invalid_scope'],
    [
      'a wrong secret',
      form({ grant_type: 'client_credentials', client_id: 'sandbox', client_secret: 'tw_cs_wrong' }),
      401,
      'invalid_client',
    ],
    [
      'an unknown client',
      form({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: SANDBOX_CLIENT.secret }),
      401,
      'invalid_client',
    ],
    ['no client authentication', form({ grant_type: 'client_credentials', scope: 'api.read' }), 400, 'invalid_request'],
    ['another grant type', sandboxForm({ grant_type: 'password' }), 400, 'unsupported_grant_type'],
    ['no grant type', form({ client_id: 'sandbox', client_secret: SANDBOX_CLIENT.secret }), 400, 'invalid_request'],
    ['a repeated parameter', `${sandboxForm()}&scope=api.read&scope=api.read`, 400, 'invalid_request'],
    ['a resource of another server', sandboxForm({ resource: 'https://evil.example/api' }), 400, 'invalid_target'],
    ['a resource with a fragment', sandboxForm({ resource: 'http://127.0.0.1/#x' }), 400, 'invalid_target'],
    ['a relative resource', sandboxForm({ resource: MCP_PATH }), 400, 'invalid_target'],
  ])('refuses %s with an RFC 6749 error', async (_name, body, status, error) => {
    const { res, body: json } = await tokenRequest(body)
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(json).toMatchObject({ error, error_description: expect.any(String) })
    if (status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Basic /)
  })

  it('refuses a revoked client', async () => {
    const secret = await cli('client', 'create', '--id', 'short-lived', '--scopes', 'api.read', '--label', 'x')
    secrets.push(secret)
    expect(
      (await tokenRequest(form({ grant_type: 'client_credentials', client_id: 'short-lived', client_secret: secret })))
        .res.status,
    ).toBe(200)
    await cli('client', 'revoke', 'short-lived')
    expect(
      (await tokenRequest(form({ grant_type: 'client_credentials', client_id: 'short-lived', client_secret: secret })))
        .body.error,
    ).toBe('invalid_client')
  })

  it('takes form-encoded bodies of bounded size, over POST only', async () => {
    const json = await fetch(`${gw.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    })
    expect(json.status).toBe(415)
    expect(json.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
    expect(await json.json()).toMatchObject({ type: '/problems/unsupported-media-type', status: 415 })
    const big = await fetch(`${gw.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${sandboxForm()}&pad=${'x'.repeat(64 * 1024)}`,
    })
    expect(big.status).toBe(413)
    const get = await fetch(`${gw.url}/oauth/token`)
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toContain('POST')
  })
})

describe('discovery', () => {
  it('publishes RFC 8414 metadata and the JWKS of the built-in issuer', async () => {
    const meta = await (await fetch(`${gw.url}/.well-known/oauth-authorization-server`)).json()
    expect(meta).toMatchObject({
      issuer: gw.url,
      token_endpoint: `${gw.url}/oauth/token`,
      jwks_uri: `${gw.url}/oauth/jwks.json`,
      authorization_endpoint: `${gw.url}/oauth/authorize`,
      registration_endpoint: `${gw.url}/oauth/register`,
      revocation_endpoint: `${gw.url}/oauth/revoke`,
      userinfo_endpoint: `${gw.url}/oauth/userinfo`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      response_types_supported: ['code'],
    })
    expect(meta.grant_types_supported).toEqual(
      expect.arrayContaining(['client_credentials', 'authorization_code', 'refresh_token']),
    )
    expect(meta.grant_types_supported).not.toContain('implicit')
    // The seed's nine and the reviewers' preview scope.
    expect(meta.scopes_supported).toHaveLength(10)
    expect(meta.scopes_supported).toContain('content.preview.read')
    // OpenID discovery at its own address: the same document.
    expect(await (await fetch(`${gw.url}/.well-known/openid-configuration`)).json()).toEqual(meta)
    const jwks = await (await fetch(meta.jwks_uri)).json()
    expect(jwks.keys).toHaveLength(1)
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })
    expect(jwks.keys[0].d).toBeUndefined()
    const prm = await (await fetch(`${gw.url}/.well-known/oauth-protected-resource/mcp`)).json()
    expect(prm).toMatchObject({
      resource: `${gw.url}/mcp`,
      authorization_servers: [gw.url],
      scopes_supported: ['mcp.tools.invoke'],
    })
  })

  it('generates the signing key once, private to its owner, and reuses it', async () => {
    const file = files().signingKey
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const again = await loadSigningKey({ file })
    const jwks = await (await fetch(`${gw.url}/oauth/jwks.json`)).json()
    expect(again.kid).toBe(jwks.keys[0].kid)
  })
})

describe('the sandbox key', () => {
  it('reads with api.read and nothing more', async () => {
    const res = await fetch(`${gw.url}${GUARDED.apiRead.path}`, { headers: bearer(SANDBOX_KEY) })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ kind: 'api-key', role: 'sandbox.read', scopes: ['api.read'] })
    const mcp = await fetch(`${gw.url}/mcp`, { method: 'POST', headers: bearer(SANDBOX_KEY) })
    expect(mcp.status).toBe(403)
    expect(challengeParams(mcp.headers.get('www-authenticate'))).toMatchObject({
      error: 'insufficient_scope',
      scope: 'mcp.tools.invoke',
    })
  })
})

describe('public reads', () => {
  it.each(['/api/blog-posts?limit=5', '/api/events?limit=2&page=2', '/api/case-studies', 'first blog post'])(
    'give the same bytes for %s with or without a credential',
    async (which) => {
      const path = which.startsWith('/')
        ? which
        : `/api/blog-posts/${(await (await fetch(`${gw.url}/api/blog-posts?limit=1`)).json()).data[0].slug}`
      const { body } = await tokenRequest(sandboxForm())
      const variants = [
        {},
        bearer(SANDBOX_KEY),
        bearer(body.access_token!),
        bearer('garbage'),
        bearer('tw_live_expired0000000000000000000000000000'),
        { authorization: 'Basic eDp5' },
      ]
      const answers = await Promise.all(
        variants.map(async (headers) => {
          const res = await fetch(`${gw.url}${path}`, { headers })
          return {
            status: res.status,
            etag: res.headers.get('etag'),
            body: Buffer.from(await res.arrayBuffer()).toString('base64'),
          }
        }),
      )
      expect(answers[0]!.status).toBe(200)
      for (const answer of answers) expect(answer).toEqual(answers[0])
    },
  )
})

describe('secrets at rest and in logs', () => {
  it('never writes a plaintext key, secret or token to the keys file, the clients file or the logs', async () => {
    expect(secrets.length).toBeGreaterThan(5)
    expect(gw.logs.some((l) => l.includes('token issued'))).toBe(true)
    const haystacks = {
      keys: await readFile(files().keys, 'utf8'),
      clients: await readFile(files().clients, 'utf8'),
      logs: gw.logs.join(''),
    }
    for (const [name, text] of Object.entries(haystacks)) {
      for (const secret of secrets) expect(text.includes(secret), `${name} contains a secret`).toBe(false)
      expect(text, name).not.toMatch(/tw_(live|sandbox)_[0-9A-Za-z]{36}|tw_cs_[0-9A-Za-z]{40}|eyJ[\w-]+\.eyJ/)
    }
    const signingKey = JSON.parse(await readFile(files().signingKey, 'utf8')) as { d: string }
    expect(haystacks.logs.includes(signingKey.d)).toBe(false)
  })
})
