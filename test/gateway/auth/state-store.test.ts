/**
 * The one storage adapter, the same contract for every store: files (with
 * owner-only permissions and keys that cannot escape the folder), Netlify
 * Blobs (against the real local Blobs server the Netlify emulation runs) and
 * Redis (a real redis-server). Values round-trip, expire, list by prefix and
 * delete.
 */
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getStore } from '@netlify/blobs'
import { BlobsServer } from '@netlify/blobs/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openBlobsStore } from '../../../gateway/auth/store/blobs-store.ts'
import { openFileStore } from '../../../gateway/auth/store/file-store.ts'
import { closeRedisConnections } from '../../../gateway/auth/store/redis-connection.ts'
import { openRedisStore } from '../../../gateway/auth/store/redis-store.ts'
import type { StateStore } from '../../../gateway/auth/store/state-store.ts'
import { startRedis, type RedisServer } from '../../helpers/redis-server.ts'

let dir: string
let blobsServer: BlobsServer
let redis: RedisServer
let previousContext: string | undefined
const stores: Record<string, () => StateStore> = {}
/** The stores' clock: tests move it instead of waiting. */
let clock = Date.now()
const now = () => clock

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'state-store-'))
  const token = 'local-blobs-token'
  blobsServer = new BlobsServer({ directory: join(dir, 'blobs-server'), token, logger: () => {} })
  const { port } = await blobsServer.start()
  const edgeURL = `http://127.0.0.1:${port}`
  previousContext = process.env.NETLIFY_BLOBS_CONTEXT
  process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
    JSON.stringify({ edgeURL, uncachedEdgeURL: edgeURL, siteID: 'test-site', token }),
  ).toString('base64')
  stores.files = () => openFileStore(join(dir, 'files'), { now })
  stores['netlify-blobs'] = () => openBlobsStore({ name: 'state-store-test', now })
  redis = await startRedis()
  stores.redis = () => openRedisStore({ url: redis.url, prefix: 'state-store-test:', now })
})
afterAll(async () => {
  if (previousContext === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT
  else process.env.NETLIFY_BLOBS_CONTEXT = previousContext
  await blobsServer?.stop()
  await closeRedisConnections()
  await redis?.close()
  await rm(dir, { recursive: true, force: true })
})

describe.each(['files', 'netlify-blobs', 'redis'])('the %s store', (kind) => {
  const store = () => stores[kind]!()

  it('round-trips JSON values and deletes them', async () => {
    const s = store()
    await s.set('oidc/Grant/abc', { accountId: 'usr_1', scopes: ['openid'] })
    expect(await s.get('oidc/Grant/abc')).toEqual({ accountId: 'usr_1', scopes: ['openid'] })
    await s.set('oidc/Grant/abc', { replaced: true })
    expect(await s.get('oidc/Grant/abc')).toEqual({ replaced: true })
    await s.delete('oidc/Grant/abc')
    expect(await s.get('oidc/Grant/abc')).toBeUndefined()
    await s.delete('oidc/Grant/never-there')
  })

  it('keeps a value for its lifetime, then forgets it', async () => {
    const s = store()
    await s.set('oidc/AuthorizationCode/soon', { code: 1 }, 60)
    clock += 59_000
    expect(await s.get('oidc/AuthorizationCode/soon')).toEqual({ code: 1 })
    clock += 2_000
    expect(await s.get('oidc/AuthorizationCode/soon')).toBeUndefined()
    // Read once expired, it is gone for good, even if the clock went back.
    clock -= 2_000
    expect(await s.get('oidc/AuthorizationCode/soon')).toBeUndefined()
  })

  it('lists the keys under a prefix, with any characters in a segment', async () => {
    const s = store()
    const keys = ['list-test/a/1', 'list-test/a/two words', 'list-test/a/%2F..', 'list-test/b/3']
    for (const key of keys) await s.set(key, key)
    expect(await s.list('list-test/a/')).toEqual(['list-test/a/%2F..', 'list-test/a/1', 'list-test/a/two words'])
    expect(await s.list('list-test/')).toHaveLength(4)
    expect(await s.list('nothing-here/')).toEqual([])
    for (const key of keys) expect(await s.get(key)).toBe(key)
  })

  it('creates a record only where none is, one winner among concurrent writers', async () => {
    const s = store()
    // Netlify's local Blobs server checks and writes in two steps (the service is atomic): race the others only.
    const writers = kind === 'netlify-blobs' ? 1 : 8
    const wins = await Promise.all(
      Array.from({ length: writers }, (_, i) => s.create('create-test/lease', { owner: i })),
    )
    expect(wins.filter(Boolean)).toHaveLength(1)
    const winner = wins.indexOf(true)
    expect(await s.create('create-test/lease', { owner: 'late' })).toBe(false)
    expect(await s.get('create-test/lease')).toEqual({ owner: winner })
    // An expired record still holds its key: create never contends with one.
    await s.create('create-test/short', 1, 1)
    clock += 2_000
    expect(await s.create('create-test/short', 2)).toBe(false)
    await s.delete('create-test/short')
    expect(await s.create('create-test/short', 3)).toBe(true)
    expect(await s.get('create-test/short')).toBe(3)
  })

  it('refuses keys that are empty, absolute or have empty segments', async () => {
    const s = store()
    for (const key of ['', '/abs', 'a//b', 'trailing/']) await expect(s.set(key, 1)).rejects.toThrow(RangeError)
    await expect(s.list('no-slash')).rejects.toThrow(RangeError)
  })
})

describe('the files store on disk', () => {
  it('keeps every record inside its folder, readable by its owner only', async () => {
    const s = openFileStore(join(dir, 'disk'))
    await s.set('x/../../escape', 1)
    await s.set('.hidden/..', 2)
    const files = (await readdir(join(dir, 'disk'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
    expect(files).toHaveLength(2)
    for (const f of files) {
      expect(join(f.parentPath, f.name).startsWith(join(dir, 'disk'))).toBe(true)
      expect(f.name.startsWith('.')).toBe(false)
      expect((await stat(join(f.parentPath, f.name))).mode & 0o777).toBe(0o600)
    }
    expect((await stat(join(dir, 'disk'))).mode & 0o777).toBe(0o700)
    expect(await s.get('x/../../escape')).toBe(1)
  })

  it('sweeps expired records and abandoned temporary files, and nothing else', async () => {
    const s = openFileStore(join(dir, 'sweep'), { now })
    await s.set('oidc/Session/old', 1, 1)
    await s.set('oidc/Session/live', 2, 3600)
    await s.set('people/usr_1', 3)
    const temp = join(dir, 'sweep', 'oidc', 'Session', 'live.json.abc.tmp')
    await writeFile(temp, '{')
    await utimes(temp, new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000))
    clock += 5_000
    expect(await s.sweep!()).toBe(2)
    expect(await s.list('')).toEqual(['oidc/Session/live', 'people/usr_1'])
  })
})

describe('the Blobs store’s sweep', () => {
  it('removes expired records and nothing else, in one pass without a budget', async () => {
    const s = openBlobsStore({ name: 'sweep-whole', now })
    await s.set('oidc/Interaction/old', 1, 60)
    await s.set('oidc/Interaction/live', 2, 3600)
    await s.set('people/usr_1', 3)
    clock += 120_000
    expect(await s.sweep()).toBe(1)
    expect(await s.list('')).toEqual(['oidc/Interaction/live', 'people/usr_1'])
  })

  it('keeps what is not in its record format, and sweeps the webhook records it wrote like any other', async () => {
    const s = openBlobsStore({ name: 'sweep-shared', now })
    const raw = getStore({ name: 'sweep-shared', consistency: 'strong' })
    await raw.setJSON('foreign/with-exp', { exp: 1 })
    await raw.set('foreign/text', 'not json')
    await s.create('webhooks/leases/send/0', { owner: 'a' }, 30)
    await s.set('webhooks/queue/sub_1/000001', { event: 'x' })
    clock += 60_000
    expect(await s.sweep()).toBe(1)
    expect(await s.list('')).toEqual(['foreign/text', 'foreign/with-exp', 'webhooks/queue/sub_1/000001'])
  })

  it('within a budget, stops after a batch and resumes where it stopped, until every expired record is gone', async () => {
    const s = openBlobsStore({ name: 'sweep-budget', now })
    const keys = Array.from({ length: 20 }, (_, i) => `oidc/Session/${String(i).padStart(2, '0')}`)
    for (const [i, key] of keys.entries()) await s.set(key, i, i % 2 ? 3600 : 60)
    clock += 120_000
    // A budget of 0 reads one batch a sweep: three sweeps go round the 20 records once.
    const removed = [await s.sweep({ budgetMs: 0 })]
    expect(removed[0]).toBeLessThan(10)
    expect((await s.list('oidc/')).length).toBeGreaterThan(10)
    removed.push(await s.sweep({ budgetMs: 0 }), await s.sweep({ budgetMs: 0 }))
    expect(removed.reduce((a, b) => a + b)).toBe(10)
    expect(await s.list('')).toEqual(keys.filter((_, i) => i % 2))
  })
})
