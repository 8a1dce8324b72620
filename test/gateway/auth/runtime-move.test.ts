/**
 * `npm run keys -- migrate`, `export` and `import`: every piece of runtime
 * data (keys, machine clients, people, webhook state, grants with their
 * lifetimes, the audit trail) moves from the files store to a real Redis,
 * on to Netlify Blobs and back to files unchanged; an export is one JSON file
 * (mode 0600) with the secrets still hashed, and importing it restores the
 * same records. The keys CLI as the operator runs it, in-process.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { openBlobsStore } from '../../../gateway/auth/store/blobs-store.ts'
import { openFileStore } from '../../../gateway/auth/store/file-store.ts'
import { BLOBS_STORE_NAME } from '../../../gateway/auth/store/open-store.ts'
import { closeRedisConnections, redisConnection } from '../../../gateway/auth/store/redis-connection.ts'
import { openRedisStore } from '../../../gateway/auth/store/redis-store.ts'
import { readRuntimeData } from '../../../gateway/auth/store/runtime-move.ts'
import type { StateStore } from '../../../gateway/auth/store/state-store.ts'
import { startLocalBlobs, type LocalBlobs } from '../../helpers/local-blobs.ts'
import { HAVE_REDIS, startRedis, type RedisServer } from '../../helpers/redis-server.ts'

let dir: string
let redis: RedisServer
let blobs: LocalBlobs
let env: Record<string, string>

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'runtime-move-'))
  redis = await startRedis()
  blobs = await startLocalBlobs(dir)
  env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'move-test:', OAUTH_STORE_DIR: 'state', LOG_LEVEL: 'silent' }
})
afterAll(async () => {
  await closeRedisConnections()
  await blobs?.stop()
  await redis?.close()
  await rm(dir, { recursive: true, force: true })
})

type Records = Awaited<ReturnType<typeof readRuntimeData>>

/**
 * `actual` holds the records of `expected`, each expiring when it did: a lifetime is kept in whole
 * seconds, rounded up, so a move that straddles a second may add one, never take one away.
 */
function expectSame(actual: Records, expected: Records) {
  const bare = (records: Records) => records.map(({ expires_at: _, ...rest }) => rest)
  expect(bare(actual)).toEqual(bare(expected))
  for (const [i, record] of actual.entries()) {
    const was = expected[i]!.expires_at
    if (was === undefined) {
      expect(record.expires_at).toBeUndefined()
      continue
    }
    expect(record.expires_at).toBeGreaterThanOrEqual(was)
    expect(record.expires_at).toBeLessThanOrEqual(was + 3)
  }
}

async function keys(store: string, args: string[], stdin = '') {
  const out: string[] = []
  const err: string[] = []
  const code = await runKeysCli(args, {
    env: { ...env, STATE_STORE: store },
    cwd: dir,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    stdin: async () => stdin,
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

const stores = {
  files: () => openFileStore(join(dir, 'state')),
  redis: () => openRedisStore({ url: redis.url, prefix: 'move-test:' }),
  'netlify-blobs': () => openBlobsStore({ name: BLOBS_STORE_NAME }),
} satisfies Record<string, () => StateStore>

/** Everything a store and its documents hold, as the move reads it. */
async function contents(kind: keyof typeof stores) {
  const store = stores[kind]()
  const files = kind === 'files'
  return readRuntimeData({
    name: kind,
    store,
    keys: files ? join(dir, 'gateway/.data/keys.json') : undefined,
    clients: files ? join(dir, 'gateway/.data/clients.json') : undefined,
  })
}

describe.skipIf(!HAVE_REDIS)('runtime data moved between stores', () => {
  let secret: string
  let before: Awaited<ReturnType<typeof contents>>

  beforeAll(async () => {
    const created = await keys('files', ['create', '--role', 'agent.mcp', '--label', 'ci'])
    expect(created.code, created.err).toBe(0)
    secret = created.out.trim()
    expect(
      (await keys('files', ['client', 'create', '--id', 'etl', '--scopes', 'content.blog.read', '--label', 'etl']))
        .code,
    ).toBe(0)
    const person = await keys(
      'files',
      ['user', 'create', '--email', 'ann@example.com', '--name', 'Ann', '--password-stdin'],
      'a long enough password',
    )
    expect(person.code, person.err).toBe(0)
    // What the running gateway writes: a grant that expires, a webhook delivery in the queue.
    const files = stores.files()
    await files.set('oidc/Grant/g1', { accountId: 'p1', exp: 1 }, 3600)
    await files.set('webhooks/queue/d1', { subscription: 's1', attempt: 0 })
    before = await contents('files')
    expect(before.map((r) => r.key.split('/')[0])).toEqual(
      expect.arrayContaining(['credentials', 'people', 'oidc', 'webhooks', 'audit']),
    )
  })

  it('moves every record from files to Redis, with its lifetime, and the key works there', async () => {
    const moved = await keys('files', ['migrate', '--from', 'files', '--to', 'redis'])
    expect(moved.code, moved.err).toBe(0)
    expect(moved.err).toMatch(new RegExp(`moved ${before.length} records .* to Redis at 127\\.0\\.0\\.1:${redis.port}`))
    expectSame(await contents('redis'), before)
    // Redis's own expiry holds the lifetime.
    const { client } = redisConnection(redis.url)
    expect(await client.ttl('move-test:oidc/Grant/g1')).toBeGreaterThan(3000)
    expect(await client.ttl('move-test:credentials/api-keys')).toBeLessThan(0)
    const listed = await keys('redis', ['list'])
    expect(listed.out).toMatch(/^key_\w+\tagent\.mcp\tactive\tci$/m)
  })

  it('moves them on from Redis to Blobs and from Blobs back to files', async () => {
    expect((await keys('redis', ['migrate', '--from', 'redis', '--to', 'netlify-blobs'])).code).toBe(0)
    expectSame(await contents('netlify-blobs'), before)
    await rm(join(dir, 'state'), { recursive: true, force: true })
    await rm(join(dir, 'gateway'), { recursive: true, force: true })
    const back = await keys('files', ['migrate', '--from', 'netlify-blobs', '--to', 'files'])
    expect(back.code, back.err).toBe(0)
    expectSame(await contents('files'), before)
  })

  it('exports one JSON file, owner-only, secrets still hashed, and imports it back', async () => {
    const file = join(dir, 'backup.json')
    const exported = await keys('redis', ['export', 'backup.json'])
    expect(exported.code, exported.err).toBe(0)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const text = await readFile(file, 'utf8')
    expect(text).not.toContain(secret)
    expect(text).not.toContain('a long enough password')
    const body = JSON.parse(text) as { format: string; from: string; records: unknown[] }
    expect(body).toMatchObject({ format: 'content-api-runtime-data', from: 'redis' })
    expectSame(body.records as Records, before)

    env.REDIS_KEY_PREFIX = 'restored:'
    try {
      const imported = await keys('redis', ['import', 'backup.json'])
      expect(imported.code, imported.err).toBe(0)
      const restored = openRedisStore({ url: redis.url, prefix: 'restored:' })
      expectSame(await readRuntimeData({ name: 'redis', store: restored, keys: undefined, clients: undefined }), before)
    } finally {
      env.REDIS_KEY_PREFIX = 'move-test:'
    }
  })

  it('refuses a file that is not an export, and a move to the same store, with one line', async () => {
    await writeFile(join(dir, 'other.json'), '{"records": []}')
    const bad = await keys('files', ['import', 'other.json'])
    expect(bad.code).not.toBe(0)
    expect(bad.err).toMatch(/other\.json is not a file of `keys export`/)
    expect(bad.err).not.toMatch(/\n\s+at /)
    const same = await keys('files', ['migrate', '--from', 'redis', '--to', 'redis'])
    expect(same.code).not.toBe(0)
    expect(same.err).toMatch(/--from and --to must name two different stores/)
  })
})
