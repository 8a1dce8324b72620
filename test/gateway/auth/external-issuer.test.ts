/**
 * The gateway verifying an external issuer's tokens: oidc-provider runs
 * in-process and issues real client_credentials JWTs; the guard is exercised
 * through protected routes on a real server. Tokens that are wrong in one way
 * are minted with the issuer's own key, so only that one thing is wrong.
 */
import { createPublicKey, type JsonWebKey } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { base64url, generateKeyPair, importJWK, SignJWT, type JWTPayload } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import type { TempProject } from '../../helpers/project.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { startTestIssuer, type TestIssuer } from './oidc-issuer.ts'
import { builtProject, challengeParams, GUARDED, guardedRoutes } from './setup.ts'

let project: TempProject
let issuer: TestIssuer
let gw: TestGateway
const keys: Record<'agent' | 'expired' | 'revoked', string> = { agent: '', expired: '', revoked: '' }

async function cli(...args: string[]): Promise<string> {
  return cliAt(new Date(), ...args)
}

async function cliAt(now: Date, ...args: string[]): Promise<string> {
  const out: string[] = []
  const code = await runKeysCli([...args, '--file', join(project.root, 'keys.json')], {
    env: {},
    cwd: project.root,
    now: () => now,
    out: (l) => out.push(l),
    err: () => {},
  })
  expect(code).toBe(0)
  return out.join('\n')
}

/** A gateway verifying the external issuer's tokens (its settings changed by `env`), with the guarded stand-ins. */
async function start(env: Record<string, string> = {}): Promise<TestGateway> {
  const started: TestGateway = await startGateway(project.dist, {
    keysFile: join(project.root, 'keys.json'),
    env: { OAUTH_ISSUER: issuer.issuer, ...env },
    platform: { routes: [guardedRoutes(() => started.gateway)] },
  })
  return started
}

beforeAll(async () => {
  ;[project, issuer] = await Promise.all([builtProject(), startTestIssuer()])
  keys.agent = await cli('create', '--role', 'agent.mcp', '--label', 'test agent')
  // Made in 2019 to expire in 2020 (a date already past is refused).
  keys.expired = await cliAt(
    new Date('2019-12-01T00:00:00Z'),
    'create',
    '--role',
    'agent.mcp',
    '--label',
    'expired agent',
    '--expires',
    '2020-01-01',
  )
  keys.revoked = await cli('create', '--role', 'agent.mcp', '--label', 'revoked agent')
  const id = (await cli('list'))
    .split('\n')
    .find((l) => l.includes('revoked agent'))!
    .split('\t')[0]!
  await runKeysCli(['revoke', id, '--file', join(project.root, 'keys.json')], {
    env: {},
    cwd: project.root,
    out: () => {},
    err: () => {},
  })
  gw = await start()
})
afterAll(async () => {
  await gw?.close()
  await issuer?.close()
  await project?.remove()
})

const call = (path: string, token?: string, base = gw.url) =>
  fetch(`${base}${path}`, { method: 'POST', headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })

/** A token signed with the issuer's real key (or another), valid unless a test changes one thing. */
async function mint(
  overrides: JWTPayload = {},
  options: { alg?: string; kid?: string; typ?: string; key?: CryptoKey | Uint8Array } = {},
) {
  const now = Math.floor(Date.now() / 1000)
  const claims = {
    iss: issuer.issuer,
    aud: `${gw.url}/mcp`,
    sub: issuer.clientId,
    client_id: issuer.clientId,
    scope: 'mcp.tools.invoke',
    iat: now,
    exp: now + 300,
    jti: `t${Math.random()}`,
    ...overrides,
  }
  const key = options.key ?? ((await importJWK(issuer.privateJwk, 'ES256')) as CryptoKey)
  return new SignJWT(claims)
    .setProtectedHeader({
      alg: options.alg ?? 'ES256',
      kid: options.kid ?? issuer.privateJwk.kid,
      typ: options.typ ?? 'at+jwt',
    })
    .sign(key)
}

async function expectInvalidToken(res: Response) {
  expect(res.status).toBe(401)
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
  expect(await res.json()).toMatchObject({ type: '/problems/unauthorized', status: 401 })
  const challenge = challengeParams(res.headers.get('www-authenticate'))
  expect(challenge.error).toBe('invalid_token')
  expect(challenge.resource_metadata).toBe(`${gw.url}/.well-known/oauth-protected-resource/mcp`)
}

describe('tokens from the external issuer', () => {
  it('accepts a token with the right scope and audience', async () => {
    const token = await issuer.token({ scope: 'mcp.tools.invoke', resource: `${gw.url}/mcp` })
    const res = await call(GUARDED.mcp.path, token)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ kind: 'oauth', client_id: issuer.clientId, scopes: ['mcp.tools.invoke'] })
  })

  it('answers 403 insufficient_scope, naming the scope, when the token lacks it', async () => {
    const token = await issuer.token({ scope: 'api.read', resource: `${gw.url}/mcp` })
    const res = await call(GUARDED.mcp.path, token)
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ type: '/problems/forbidden', status: 403 })
    expect(challengeParams(res.headers.get('www-authenticate'))).toMatchObject({
      error: 'insufficient_scope',
      scope: 'mcp.tools.invoke',
    })
    expect((await call(GUARDED.apiRead.path, token)).status).toBe(200)
  })

  it('refuses a token issued for another audience', async () => {
    await expectInvalidToken(
      await call(
        GUARDED.mcp.path,
        await issuer.token({ scope: 'mcp.tools.invoke', resource: 'https://other.example/api' }),
      ),
    )
  })

  it('refuses an expired token, tolerating a few seconds of clock skew', async () => {
    const now = Math.floor(Date.now() / 1000)
    await expectInvalidToken(await call(GUARDED.mcp.path, await mint({ iat: now - 600, exp: now - 120 })))
    expect((await call(GUARDED.mcp.path, await mint({ iat: now - 600, exp: now - 5 }))).status).toBe(200)
  })

  it('refuses a token issued in the future beyond the clock tolerance, and takes one within it', async () => {
    const now = Math.floor(Date.now() / 1000)
    const res = await call(GUARDED.mcp.path, await mint({ iat: now + 600, exp: now + 900 }))
    await expectInvalidToken(res.clone())
    expect(challengeParams(res.headers.get('www-authenticate')).error_description).toMatch(/iat.*future/)
    expect((await call(GUARDED.mcp.path, await mint({ iat: now + 5, exp: now + 300 }))).status).toBe(200)
  })

  it('refuses a token from another issuer, signed with the right key', async () => {
    await expectInvalidToken(await call(GUARDED.mcp.path, await mint({ iss: 'https://issuer.other.example' })))
  })

  it('refuses a token whose signature was altered', async () => {
    const [h, p, s] = (await issuer.token({ scope: 'mcp.tools.invoke', resource: `${gw.url}/mcp` })).split('.')
    const sig = base64url.decode(s!)
    sig[10] = sig[10]! ^ 0xff
    await expectInvalidToken(await call(GUARDED.mcp.path, `${h}.${p}.${base64url.encode(sig)}`))
  })

  it('refuses alg none', async () => {
    const enc = (o: object) => base64url.encode(JSON.stringify(o))
    const now = Math.floor(Date.now() / 1000)
    const body = enc({
      iss: issuer.issuer,
      aud: `${gw.url}/mcp`,
      sub: 'x',
      scope: 'mcp.tools.invoke',
      iat: now,
      exp: now + 300,
    })
    await expectInvalidToken(await call(GUARDED.mcp.path, `${enc({ alg: 'none', typ: 'at+jwt' })}.${body}.`))
    await expectInvalidToken(
      await call(
        GUARDED.mcp.path,
        `${enc({ alg: 'none', kid: issuer.privateJwk.kid })}.${body}.${base64url.encode('x')}`,
      ),
    )
  })

  it("refuses HS256 signed with the issuer's public key as the secret", async () => {
    const { d: _d, ...publicJwk } = issuer.privateJwk
    const pem = createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' }).export({
      type: 'spki',
      format: 'pem',
    }) as string
    await expectInvalidToken(
      await call(GUARDED.mcp.path, await mint({}, { alg: 'HS256', key: new TextEncoder().encode(pem) })),
    )
    await expectInvalidToken(
      await call(
        GUARDED.mcp.path,
        await mint({}, { alg: 'HS256', key: new TextEncoder().encode(JSON.stringify(publicJwk)) }),
      ),
    )
  })

  it('refuses a token signed by an unknown key id', async () => {
    const { privateKey } = await generateKeyPair('ES256')
    await expectInvalidToken(await call(GUARDED.mcp.path, await mint({}, { kid: 'unknown-kid', key: privateKey })))
    // Same kid as the issuer's, different key: a bad signature.
    await expectInvalidToken(await call(GUARDED.mcp.path, await mint({}, { key: privateKey })))
  })

  it('accepts typ JWT and refuses a token that is not an access token', async () => {
    expect((await call(GUARDED.mcp.path, await mint({}, { typ: 'JWT' }))).status).toBe(200)
    await expectInvalidToken(await call(GUARDED.mcp.path, await mint({}, { typ: 'dpop+jwt' })))
  })

  it('reads scopes from scp as well as scope', async () => {
    expect(
      (await call(GUARDED.mcp.path, await mint({ scope: undefined, scp: ['api.read', 'mcp.tools.invoke'] }))).status,
    ).toBe(200)
    expect((await call(GUARDED.mcp.path, await mint({ scope: undefined, scp: 'mcp.tools.invoke' }))).status).toBe(200)
    expect((await call(GUARDED.mcp.path, await mint({ scope: 'api.read' }))).status).toBe(403)
  })

  it('refuses garbage', async () => {
    for (const garbage of ['garbage', 'a.b.c', 'eyJhbGciOiJFUzI1NiJ9.e30.AAAA', 'tw_nope'])
      await expectInvalidToken(await call(GUARDED.mcp.path, garbage))
    await expectInvalidToken(await call(GUARDED.mcp.path, 'not{a}token'))
  })
})

describe('missing credentials', () => {
  it('answers 401 with the /mcp resource metadata and no error code', async () => {
    for (const headers of [{}, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }] as Record<
      string,
      string
    >[]) {
      const res = await fetch(`${gw.url}/mcp`, { method: 'POST', headers })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(
        new RegExp(`^Bearer resource_metadata="${gw.url}/\\.well-known/oauth-protected-resource/mcp"`),
      )
      expect(challengeParams(res.headers.get('www-authenticate')).error).toBeUndefined()
      expect(await res.json()).toMatchObject({ type: '/problems/unauthorized', status: 401 })
    }
  })

  it("points other protected routes at the API's resource metadata", async () => {
    const res = await fetch(`${gw.url}${GUARDED.apiRead.path}`)
    expect(challengeParams(res.headers.get('www-authenticate')).resource_metadata).toBe(
      `${gw.url}/.well-known/oauth-protected-resource`,
    )
  })
})

describe('API keys', () => {
  it("accepts an active key with the role's scopes", async () => {
    expect(keys.agent).toMatch(/^tw_live_[0-9A-Za-z]{36}$/)
    const res = await call(GUARDED.mcp.path, keys.agent)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ kind: 'api-key', role: 'agent.mcp', scopes: ['mcp.tools.invoke'] })
    expect((await call(GUARDED.apiRead.path, keys.agent)).status).toBe(403)
  })

  it('refuses a key with a bad checksum, an unknown key, an expired key and a revoked key', async () => {
    const last = keys.agent.at(-1) === 'A' ? 'B' : 'A'
    await expectInvalidToken(await call(GUARDED.mcp.path, keys.agent.slice(0, -1) + last))
    const flipped = keys.agent.slice(0, 12) + (keys.agent[12] === 'x' ? 'y' : 'x') + keys.agent.slice(13)
    await expectInvalidToken(await call(GUARDED.mcp.path, flipped))
    await expectInvalidToken(await call(GUARDED.mcp.path, keys.expired))
    await expectInvalidToken(await call(GUARDED.mcp.path, keys.revoked))
  })

  it('follows revocation in a running gateway', async () => {
    const key = await cli('create', '--role', 'agent.mcp', '--label', 'short-lived')
    expect((await call(GUARDED.mcp.path, key)).status).toBe(200)
    const id = (await cli('list'))
      .split('\n')
      .find((l) => l.includes('short-lived'))!
      .split('\t')[0]!
    await cli('revoke', id)
    await expectInvalidToken(await call(GUARDED.mcp.path, key))
  })
})

describe('discovery', () => {
  it('publishes RFC 9728 metadata naming the external issuer', async () => {
    const res = await fetch(`${gw.url}/.well-known/oauth-protected-resource/mcp`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      resource: `${gw.url}/mcp`,
      authorization_servers: [issuer.issuer],
      bearer_methods_supported: ['header'],
    })
    expect(await (await fetch(`${gw.url}/.well-known/oauth-protected-resource`)).json()).toMatchObject({
      resource: gw.url,
    })
  })

  it("mirrors the external issuer's metadata and has no token endpoint of its own", async () => {
    const res = await fetch(`${gw.url}/.well-known/oauth-authorization-server`)
    expect(res.status).toBe(200)
    const doc = await res.json()
    expect(doc.issuer).toBe(issuer.issuer)
    expect(doc.token_endpoint).toBe(`${issuer.issuer}/token`)
    expect(
      (
        await fetch(`${gw.url}/oauth/token`, {
          method: 'POST',
          body: new URLSearchParams({ grant_type: 'client_credentials' }),
        })
      ).status,
    ).not.toBe(200)
  })
})

describe('issuer unreachable', () => {
  let closedUrl: string
  beforeAll(async () => {
    const server = createServer()
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    closedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    await new Promise<void>((done) => server.close(() => done()))
  })

  it('answers 503 when the JWKS cannot be fetched, never 500 and never a pass', async () => {
    const down = await start({ OAUTH_JWKS_URL: `${closedUrl}/jwks` })
    try {
      const token = await issuer.token({ scope: 'mcp.tools.invoke', resource: `${down.url}/mcp` })
      const res = await call(GUARDED.mcp.path, token, down.url)
      expect(res.status).toBe(503)
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
      expect(await res.json()).toMatchObject({ type: '/problems/unavailable', status: 503 })
      // Keys do not depend on the issuer; garbage is still a 401 without asking it.
      expect((await call(GUARDED.mcp.path, keys.agent, down.url)).status).toBe(200)
      expect((await call(GUARDED.mcp.path, 'garbage', down.url)).status).toBe(401)
    } finally {
      await down.close()
    }
  })

  it('answers 503 when the issuer metadata cannot be fetched', async () => {
    const down = await start({ OAUTH_ISSUER: closedUrl })
    try {
      const res = await call(GUARDED.mcp.path, await mint({ iss: closedUrl, aud: `${down.url}/mcp` }), down.url)
      expect(res.status).toBe(503)
      expect((await fetch(`${down.url}/.well-known/oauth-authorization-server`)).status).toBe(503)
    } finally {
      await down.close()
    }
  })
})

describe('secrets at rest and in logs', () => {
  it('keeps only hashes in the keys file and no credential in the logs', async () => {
    const file = await readFile(join(project.root, 'keys.json'), 'utf8')
    const logs = gw.logs.join('')
    expect(logs).toContain('"status":401')
    for (const key of Object.values(keys)) {
      expect(key).toMatch(/^tw_live_/)
      expect(file.includes(key)).toBe(false)
      expect(logs.includes(key)).toBe(false)
    }
    expect(file).not.toMatch(/tw_(live|sandbox)_/)
    expect(logs).not.toMatch(/tw_(live|sandbox)_[0-9A-Za-z]{8}|eyJ[\w-]+\.|oidc-test-client-secret/)
  })
})
