/**
 * One settings schema: every runtime reads it, a bad value stops `npm start`,
 * `npm run dev`, the build and the Netlify function with one line naming the
 * variable and what it accepts, and the table of docs/operating.md is the schema's.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultOf, deprecations, readSettings, SETTINGS, SettingsError } from '../../contract/settings.ts'
import { SETTINGS_PAGE, withSettingsTable } from '../../build/docs/settings-doc.ts'
import { type Command, runCommand } from '../helpers/commands.ts'
import { REPO_ROOT } from '../helpers/project.ts'
import { runTsx } from '../helpers/run-tsx.ts'

/** A value OAUTH_SIGNING_KEY accepts (the schema checks its form only). */
const SIGNING_KEY = '{"kty":"EC"}'

describe('STATE_STORE, once OAUTH_STORE', () => {
  it('reads the old name where the new one is unset, and says it is deprecated', () => {
    const old = { OAUTH_STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' }
    expect(readSettings(old, 'start').STATE_STORE).toBe('redis')
    expect(deprecations(old)).toEqual([
      'OAUTH_STORE is deprecated and will be removed: name it STATE_STORE (the same values)',
    ])
    expect(readSettings({ ...old, STATE_STORE: 'redis' }, 'start').STATE_STORE).toBe('redis')
    expect(deprecations({ STATE_STORE: 'files', OAUTH_STORE: '' })).toEqual([])
  })

  it('refuses the two names set to different stores, and a bad old value, naming STATE_STORE', () => {
    expect(() => readSettings({ STATE_STORE: 'files', OAUTH_STORE: 'netlify-blobs' }, 'start')).toThrow(
      'STATE_STORE and OAUTH_STORE (its old name) differ: set STATE_STORE alone',
    )
    expect(() => readSettings({ OAUTH_STORE: 'disk' }, 'start')).toThrow(
      /^STATE_STORE must be files, netlify-blobs or redis/,
    )
  })

  it('has the keys CLI print the deprecation line', async () => {
    const result = await runTsx(['gateway/auth/keys-cli.ts', 'list'], {
      OAUTH_STORE: 'files',
      STATE_STORE: undefined,
      KEYS_FILE: 'no-such/keys.json',
    })
    expect(result.stderr).toContain('! OAUTH_STORE is deprecated and will be removed: name it STATE_STORE')
  })
})

describe('the settings schema', () => {
  it('gives the defaults of each runtime, and reads values', () => {
    expect(readSettings({}, 'start')).toMatchObject({
      PORT: 8787,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'none',
      STATE_STORE: 'files',
      BUILD_THREADS: 'auto',
      PUBLIC_URL: undefined,
    })
    expect(readSettings({}, 'dev')).toMatchObject({ LOG_LEVEL: 'warn' })
    expect(readSettings({ OAUTH_SIGNING_KEY: SIGNING_KEY }, 'netlify')).toMatchObject({
      TRUST_PROXY: 'netlify',
      STATE_STORE: 'netlify-blobs',
    })
    expect(
      readSettings(
        {
          PORT: '0',
          PUBLIC_URL: 'https://api.example.com/',
          MCP_ALLOWED_ORIGINS: ' https://a.example, http://b.example ',
          BUILD_THREADS: '3',
          LOG_LEVEL: '',
        },
        'start',
      ),
    ).toMatchObject({
      PORT: 0,
      PUBLIC_URL: 'https://api.example.com',
      MCP_ALLOWED_ORIGINS: ['https://a.example', 'http://b.example'],
      BUILD_THREADS: 3,
      LOG_LEVEL: 'info',
    })
  })

  it('refuses a bad value with one line naming the variable and what it accepts; never echoes a secret', () => {
    const cases: [Record<string, string>, string][] = [
      [{ PORT: '80a' }, 'PORT must be an integer from 0 to 65535; got "80a"'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be debug, info, warn, error or silent; got "loud"'],
      [
        { PUBLIC_URL: 'api.example.com' },
        'PUBLIC_URL must be an origin like https://api.example.com (at most 300 characters); got "api.example.com"',
      ],
      [{ BUILD_THREADS: 'lots' }, 'BUILD_THREADS must be auto or an integer from 1 to 64; got "lots"'],
      [{ RATE_LIMIT_PER_MINUTE: '1.5' }, 'RATE_LIMIT_PER_MINUTE must be an integer from 0 to 1000000; got "1.5"'],
      [{ OAUTH_SIGNING_KEY: 'x' }, 'OAUTH_SIGNING_KEY must be a private P-256 JWK as JSON; its value is not shown'],
    ]
    for (const [env, message] of cases) {
      let error: unknown
      try {
        readSettings(env, 'start')
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(SettingsError)
      expect((error as SettingsError).message).toBe(message)
      expect((error as SettingsError).setting).toBe(Object.keys(env)[0])
    }
  })

  it('every default is a value the schema accepts', () => {
    for (const runtime of ['start', 'dev', 'netlify', 'build', 'cli'] as const) {
      for (const name of Object.keys(SETTINGS) as (keyof typeof SETTINGS)[]) {
        const value = defaultOf(name, runtime)
        if (value !== undefined)
          expect(
            () => readSettings({ OAUTH_SIGNING_KEY: SIGNING_KEY, [name]: value }, runtime),
            `${name} (${runtime})`,
          ).not.toThrow()
      }
    }
  })

  it('is what docs/operating.md says (npm run docs:settings writes the table)', async () => {
    expect(SETTINGS_PAGE).toBe('docs/operating.md')
    const page = await readFile(join(REPO_ROOT, SETTINGS_PAGE), 'utf8')
    expect(withSettingsTable(page)).toBe(page)
    for (const name of Object.keys(SETTINGS)) expect(page).toContain(`| \`${name}\` |`)
  })
})

// Each case starts a process: the commands as their npm scripts start them (build/run.mjs), the
// Netlify function's module under tsx.
describe('a bad setting stops every runtime with one line', { timeout: 120_000 }, () => {
  it('npm start, npm run dev and the build exit 1 naming the variable, without a stack trace', async () => {
    for (const [command, args, env] of [
      ['serve', [], { PORT: '80a' }],
      ['dev', [], { PORT: '80a' }],
      ['cli', ['check'], { BUILD_THREADS: 'lots' }],
    ] as const) {
      const result = await runCommand(command, [...args], env)
      expect(result.code, command).toBe(1)
      const lines = result.stderr.split('\n').filter((l) => l && !l.startsWith('oidc-provider WARNING'))
      expect(lines, command).toEqual([
        `✗ ${Object.keys(env)[0]} must be ${Object.keys(env)[0] === 'PORT' ? 'an integer from 0 to 65535; got "80a"' : 'auto or an integer from 1 to 64; got "lots"'}`,
      ])
    }
  })

  it('names every bad setting of one run, a line each: npm start and the build alike', async () => {
    const env = { PORT: 'abc', LOG_LEVEL: 'verbose', FILE_CACHE_MB: '-1' }
    const expected = [
      '✗ PORT must be an integer from 0 to 65535; got "abc"',
      '✗ LOG_LEVEL must be debug, info, warn, error or silent; got "verbose"',
      '✗ FILE_CACHE_MB must be an integer from 0 to 4096; got "-1"',
    ]
    // `npm start` is the build, then the gateway: each reads every setting.
    for (const [command, args] of [
      ['serve', []],
      ['cli', ['build']],
    ] as [Command, string[]][]) {
      const result = await runCommand(command, args, env)
      expect(result.code, command).toBe(1)
      expect(result.stderr.split('\n').filter(Boolean), command).toEqual(expected)
    }
    // What only the settings together break, besides a value refused on its own.
    expect(() => readSettings({ OAUTH_SIGNING_KEY: '', PORT: 'x' }, 'netlify')).toThrow(
      expect.objectContaining({ setting: 'PORT', others: [expect.objectContaining({ setting: 'OAUTH_SIGNING_KEY' })] }),
    )
  })

  it('HOST off loopback without PUBLIC_URL stops npm start and npm run dev with one line naming PUBLIC_URL', async () => {
    for (const command of ['serve', 'dev'] as const) {
      const result = await runCommand(command, [], { HOST: '0.0.0.0', PORT: '0', PUBLIC_URL: '' })
      expect(result.code, command).toBe(1)
      expect(result.stderr.split('\n').filter(Boolean), command).toEqual([
        '✗ PUBLIC_URL must be set when HOST is not a loopback address (HOST is "0.0.0.0"): it is the origin clients use, which the OAuth metadata names and /mcp checks requests against, e.g. PUBLIC_URL=http://192.168.1.20:8787',
      ])
    }
    expect(() => readSettings({ HOST: '::1' }, 'start')).not.toThrow()
  })

  it('the Netlify function without OAUTH_SIGNING_KEY (or OAUTH_ISSUER) logs one line naming it and answers 503', async () => {
    const script = `
      const { default: handler } = await import(${JSON.stringify(join(REPO_ROOT, 'gateway/netlify/gateway.ts'))})
      const response = await handler(new Request('https://site.example/.netlify/functions/gateway/api/health'))
      console.log(JSON.stringify({ status: response.status }))`
    const result = await runTsx(['--input-type=module', '-e', script], { OAUTH_SIGNING_KEY: '', OAUTH_ISSUER: '' })
    expect(JSON.parse(result.stdout)).toEqual({ status: 503 })
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      "✗ OAUTH_SIGNING_KEY must be set on Netlify (or OAUTH_ISSUER): the function runs as many instances, which cannot share a key each would generate, so a token one issues would fail on the next; `npm run keys -- signing-key` prints one to set in the site's environment",
    ])
    // An external issuer signs the tokens itself: no key needed.
    expect(() => readSettings({ OAUTH_ISSUER: 'https://login.example.com' }, 'netlify')).not.toThrow()
  })

  it('the Netlify function logs the line and answers 503, naming nothing', async () => {
    const script = `
      const { default: handler } = await import(${JSON.stringify(join(REPO_ROOT, 'gateway/netlify/gateway.ts'))})
      const response = await handler(new Request('https://site.example/.netlify/functions/gateway/api/health'))
      console.log(JSON.stringify({ status: response.status, type: response.headers.get('content-type'), body: await response.json() }))`
    const result = await runTsx(['--input-type=module', '-e', script], { LOG_LEVEL: 'loud' })
    const answer = JSON.parse(result.stdout) as { status: number; type: string; body: { type: string; detail: string } }
    expect(answer.status).toBe(503)
    expect(answer.type).toContain('application/problem+json')
    expect(answer.body).toMatchObject({
      type: '/problems/unavailable',
      detail: 'The gateway cannot start; its log says why.',
    })
    expect(result.stderr).toContain('✗ LOG_LEVEL must be debug, info, warn, error or silent; got "loud"')
  })
})
