/** The pure parts of the credential code: key format, header parsing, challenges, settings. */
import { describe, expect, it } from 'vitest'
import {
  API_KEY_PATTERN,
  generateApiKey,
  hasKeyPrefix,
  hashApiKey,
  isWellFormedApiKey,
} from '../../../gateway/auth/api-key.ts'
import { parseBearer } from '../../../gateway/auth/bearer.ts'
import { bearerChallenge } from '../../../gateway/auth/challenge.ts'
import { readSettings, SettingsError } from '../../../contract/settings.ts'
import { authSettingsFrom } from '../../../gateway/auth/config.ts'
import { AuthConfigError } from '../../../gateway/auth/errors.ts'
import { createJwtVerifier } from '../../../gateway/auth/jwt.ts'
import { loadSigningKey } from '../../../gateway/auth/issuer/signing-key.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { parseKeysFile } from '../../../gateway/auth/keys-file.ts'
import { isScope, ROLES, scopeNames, scopesFromClaims, scopesOf } from '../../../contract/scopes.ts'
import { FIXTURE_MODEL } from '../../helpers/site.ts'

describe('API keys', () => {
  it('have a prefix, 30 random characters and a checksum that catches any one-character change', () => {
    const key = generateApiKey('live')
    expect(key).toMatch(API_KEY_PATTERN)
    expect(key.startsWith('tw_live_')).toBe(true)
    expect(generateApiKey('sandbox').startsWith('tw_sandbox_')).toBe(true)
    expect(isWellFormedApiKey(key)).toBe(true)
    for (let i = 8; i < key.length; i++) {
      const changed = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1)
      expect(isWellFormedApiKey(changed), `position ${i}`).toBe(false)
    }
    expect(isWellFormedApiKey(key.replace('tw_live_', 'tw_sandbox_').slice(0, -3))).toBe(false)
  })

  it('are told apart from JWTs by prefix alone', () => {
    expect(hasKeyPrefix(generateApiKey('live'))).toBe(true)
    expect(hasKeyPrefix('eyJhbGciOiJFUzI1NiJ9.e30.x')).toBe(false)
    expect(hashApiKey('tw_live_x')).toMatch(/^sha256:[0-9a-f]{64}$/)
  })

  it('are unique', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('live')))
    expect(keys.size).toBe(200)
  })
})

describe('bearer header', () => {
  it.each([
    [null, { kind: 'none' }],
    ['', { kind: 'none' }],
    ['Basic abc', { kind: 'none' }],
    ['Bearer', { kind: 'none' }],
    ['Bearer abc.def-_~+/=', { kind: 'token', token: 'abc.def-_~+/=' }],
    ['bearer   abc', { kind: 'token', token: 'abc' }],
  ])('%j → %j', (header, expected) => {
    expect(parseBearer(header)).toEqual(expected)
  })

  it('calls other characters and huge tokens malformed', () => {
    expect(parseBearer('Bearer a b').kind).toBe('malformed')
    expect(parseBearer('Bearer a,Bearer b').kind).toBe('malformed')
    expect(parseBearer(`Bearer ${'a'.repeat(9000)}`).kind).toBe('malformed')
  })
})

describe('challenges', () => {
  it('carry resource_metadata, error, description and scope as quoted strings', () => {
    expect(
      bearerChallenge({
        resourceMetadata: 'https://x/.well-known/oauth-protected-resource/mcp',
        error: 'insufficient_scope',
        description: 'needs "mcp"\\',
        scope: ['a', 'b'],
      }),
    ).toBe(
      'Bearer resource_metadata="https://x/.well-known/oauth-protected-resource/mcp", error="insufficient_scope", error_description="needs mcp", scope="a b"',
    )
  })
})

describe('scopes and roles', () => {
  it("lists the fixed scopes and each collection's, with descriptions, and roles mapping to them", () => {
    expect(scopeNames(FIXTURE_MODEL)).toEqual([
      'openid',
      'profile',
      'email',
      'api.read',
      'content.blog.read',
      'content.case-studies.read',
      'content.webinars.read',
      'content.events.read',
      'mcp.tools.invoke',
      'content.preview.read',
    ])
    for (const [name, description] of Object.entries(scopesOf(FIXTURE_MODEL))) {
      expect(description.length).toBeGreaterThan(5)
      expect(isScope(name)).toBe(true)
    }
    expect(scopesOf(FIXTURE_MODEL)['content.case-studies.read']).toBe('Read case studies.')
    // A collection's scope is known by its form, whether the build has that collection or not.
    expect(isScope('content.press-releases.read')).toBe(true)
    expect(isScope('content.Press.read')).toBe(false)
    expect(ROLES['sandbox.read'].scopes).toEqual(['api.read'])
    expect(ROLES['agent.mcp'].scopes).toEqual(['mcp.tools.invoke'])
    expect(ROLES['preview.read'].scopes).toEqual(['content.preview.read'])
  })

  it('reads scope and scp claims', () => {
    expect(scopesFromClaims({ scope: 'a  b' })).toEqual(['a', 'b'])
    expect(scopesFromClaims({ scp: ['a', 'c', 3] })).toEqual(['a', 'c'])
    expect(scopesFromClaims({ scp: 'a b' })).toEqual(['a', 'b'])
    expect(scopesFromClaims({})).toEqual([])
  })
})

describe('settings', () => {
  it('runs the built-in issuer unless OAUTH_ISSUER is set', () => {
    const auth = (env: Record<string, string>) => authSettingsFrom(readSettings(env, 'start'), '/r')
    expect(auth({}).issuer).toMatchObject({
      kind: 'built-in',
      clientsFile: '/r/gateway/.data/clients.json',
      signingKeyFile: '/r/gateway/.keys/oauth-signing-key.json',
    })
    expect(
      auth({
        OAUTH_ISSUER: 'https://login.example.com/',
        OAUTH_AUDIENCE: 'https://api.example.com, https://api.example.com/mcp',
      }).issuer,
    ).toEqual({
      kind: 'external',
      issuer: 'https://login.example.com/',
      jwksUrl: undefined,
      audience: ['https://api.example.com', 'https://api.example.com/mcp'],
    })
    expect(() => auth({ OAUTH_ISSUER: 'login.example.com' })).toThrow(
      'OAUTH_ISSUER must be an http(s) URL; got "login.example.com"',
    )
    expect(() => auth({ OAUTH_TOKEN_TTL: '5' })).toThrow(SettingsError)
  })

  it('refuses symmetric and unsigned algorithms', () => {
    for (const alg of ['HS256', 'none']) {
      expect(() =>
        createJwtVerifier({ issuer: 'https://i', audience: ['a'], algorithms: [alg], keys: { local: { keys: [] } } }),
      ).toThrow(AuthConfigError)
    }
  })

  it('validates the keys file', () => {
    expect(() =>
      parseKeysFile(
        '{"version":1,"keys":[{"id":"key_x1234","hash":"tw_live_plaintext","role":"agent.mcp","label":"x","created_at":"2026-01-01T00:00:00Z"}]}',
        'k.json',
      ),
    ).toThrow(/keys\.0\.hash/)
    expect(() =>
      parseKeysFile(
        `{"version":1,"keys":[{"id":"key_x1234","hash":"sha256:${'0'.repeat(64)}","role":"admin","label":"x","created_at":"2026-01-01T00:00:00Z"}]}`,
        'k.json',
      ),
    ).toThrow(/role/)
  })
})

describe('signing key from the environment', () => {
  it('takes the JWK printed by `keys signing-key` and refuses anything else', async () => {
    const out: string[] = []
    expect(await runKeysCli(['signing-key'], { env: {}, cwd: '/', out: (l) => out.push(l), err: () => {} })).toBe(0)
    const key = await loadSigningKey({ jwk: out[0], file: '/nonexistent/never-written.json' })
    expect(key.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', kid: key.kid })
    expect(key.publicJwk.d).toBeUndefined()
    expect((await loadSigningKey({ jwk: out[0], file: '/nonexistent' })).kid).toBe(key.kid)
    await expect(loadSigningKey({ jwk: '{"kty":"oct","k":"abc"}', file: '/x' })).rejects.toThrow(AuthConfigError)
    await expect(loadSigningKey({ jwk: 'not json', file: '/x' })).rejects.toThrow(AuthConfigError)
  })
})
