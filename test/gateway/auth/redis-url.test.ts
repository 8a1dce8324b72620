/**
 * REDIS_URL as operators write it: TLS (`rediss://`, the server's
 * certificate checked against the trusted CAs, NODE_EXTRA_CA_CERTS for a
 * private one), a password, and REDIS_KEY_PREFIX keeping two sites apart in
 * one Redis. A real redis-server serving TLS only, with requirepass; the
 * keys CLI as its own process. A wrong password or an untrusted certificate
 * is one line that never shows the password.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HAVE_REDIS, startRedis, type RedisServer } from '../../helpers/redis-server.ts'
import { runTsx } from '../../helpers/run-tsx.ts'

const PASSWORD = 'correct horse battery staple'
let dir: string
let redis: RedisServer
let cert: string

beforeAll(async () => {
  if (!HAVE_REDIS) return
  dir = await mkdtemp(join(tmpdir(), 'redis-tls-'))
  cert = join(dir, 'cert.pem')
  // One self-signed certificate for localhost: the server's, and the CA a client is told to trust.
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    cert,
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ])
  redis = await startRedis({ password: PASSWORD, tls: { cert, key: join(dir, 'key.pem') } })
})
afterAll(async () => {
  await redis?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

function keys(args: string[], env: Record<string, string | undefined>) {
  return runTsx(['gateway/auth/keys-cli.ts', ...args], {
    STATE_STORE: 'redis',
    OAUTH_STORE: undefined,
    KEYS_FILE: undefined,
    REDIS_URL: redis.url,
    NODE_EXTRA_CA_CERTS: cert,
    LOG_LEVEL: 'silent',
    ...env,
  })
}

describe.skipIf(!HAVE_REDIS)('REDIS_URL with TLS, a password and a key prefix', () => {
  it('keeps the keys of each site under its prefix, over TLS, with the password', async () => {
    expect(redis.url).toMatch(/^rediss:\/\/:correct%20horse%20battery%20staple@localhost:\d+$/)
    const created = await keys(['create', '--role', 'agent.mcp', '--label', 'site a'], { REDIS_KEY_PREFIX: 'site-a:' })
    expect(created.code, created.stderr).toBe(0)
    expect((await keys(['list'], { REDIS_KEY_PREFIX: 'site-a:' })).stdout).toMatch(/\tsite a$/m)
    expect((await keys(['list'], { REDIS_KEY_PREFIX: 'site-b:' })).stdout).not.toContain('site a')

    const direct = new Redis(redis.url, { tls: { ca: await readFile(cert, 'utf8') }, lazyConnect: true })
    try {
      await direct.connect()
      expect(await direct.keys('*')).toEqual(expect.arrayContaining(['site-a:credentials/api-keys']))
      expect((await direct.keys('*')).every((k) => k.startsWith('site-a:'))).toBe(true)
    } finally {
      direct.disconnect()
    }
  })

  it('refuses a wrong password and an untrusted certificate with one line, never showing the password', async () => {
    const [wrong, untrusted] = await Promise.all([
      keys(['list'], { REDIS_URL: redis.url.replace('staple', 'stable') }),
      keys(['list'], { NODE_EXTRA_CA_CERTS: undefined }),
    ])
    for (const [what, run] of [
      ['wrong password', wrong],
      ['untrusted certificate', untrusted],
    ] as const) {
      expect(run.code, what).toBe(1)
      expect(run.stderr, what).toMatch(/^✗ .*Redis at rediss:\/\/localhost:\d+/m)
      expect(run.stderr, what).not.toMatch(/horse|stable|staple/)
      expect(run.stderr, what).not.toMatch(/\n\s+at /)
    }
    expect(wrong.stderr).toMatch(/WRONGPASS|NOAUTH|invalid username-password/i)
  })
})
