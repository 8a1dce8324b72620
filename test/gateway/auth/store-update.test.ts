/**
 * The state store's read-modify-write (`update`) and change token
 * (`version`), every store: no concurrent writer's change is lost — several
 * processes on one files store (its per-record lock), on Netlify Blobs a
 * write between the read and the write of an update (its ETag condition,
 * against Netlify's local Blobs server, which checks and writes in two steps:
 * the service does it atomically, so only ordered interleavings are raced),
 * and on Redis many writers at once (its compare-and-swap script).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BlobsServer } from '@netlify/blobs/server'
import { openBlobsStore } from '../../../gateway/auth/store/blobs-store.ts'
import { StoreUnavailableError } from '../../../gateway/auth/store/store-errors.ts'
import { openFileStore } from '../../../gateway/auth/store/file-store.ts'
import { closeRedisConnections } from '../../../gateway/auth/store/redis-connection.ts'
import { openRedisStore } from '../../../gateway/auth/store/redis-store.ts'
import type { StateStore } from '../../../gateway/auth/store/state-store.ts'
import { startLocalBlobs, type LocalBlobs } from '../../helpers/local-blobs.ts'
import { freePort, startRedis, type RedisServer } from '../../helpers/redis-server.ts'
import { runTsx } from '../../helpers/run-tsx.ts'

let dir: string
let blobs: LocalBlobs
let redis: RedisServer
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-update-'))
  blobs = await startLocalBlobs(dir)
  redis = await startRedis()
})
afterAll(async () => {
  await blobs?.stop()
  await closeRedisConnections()
  await redis?.close()
  await rm(dir, { recursive: true, force: true })
})

/** The local Blobs server's ETag is the file's modification time to the millisecond: let one pass between writes. */
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 3))

const STORES: Record<string, (name: string) => StateStore> = {
  files: (name) => openFileStore(join(dir, 'files', name)),
  'netlify-blobs': (name) => openBlobsStore({ name }),
  redis: (name) => openRedisStore({ url: redis.url, prefix: `store-update:${name}:` }),
}

describe.each(Object.keys(STORES))('update on the %s store', (kind) => {
  const open = STORES[kind]!

  it('writes what the change returns, leaves the record when it returns undefined, writes nothing when it throws', async () => {
    const s = open('basics')
    expect(await s.update<number[]>('doc', (current) => [...(current ?? []), 1])).toEqual([1])
    expect(await s.update<number[]>('doc', (current) => [...(current ?? []), 2])).toEqual([1, 2])
    expect(await s.update<number[]>('doc', () => undefined)).toEqual([1, 2])
    await expect(
      s.update('doc', () => {
        throw new RangeError('refused')
      }),
    ).rejects.toThrow('refused')
    expect(await s.get('doc')).toEqual([1, 2])
    expect(await s.update('absent', () => undefined)).toBeUndefined()
    expect(await s.get('absent')).toBeUndefined()
  })

  it('has a version that changes with each write and is undefined when there is no record', async () => {
    const s = open('versions')
    expect(await s.version('doc')).toBeUndefined()
    await s.set('doc', 1)
    const first = await s.version('doc')
    expect(first).toEqual(expect.any(String))
    expect(await s.version('doc')).toBe(first)
    await nextMillisecond()
    await s.update<number>('doc', (n) => (n ?? 0) + 1)
    expect(await s.version('doc')).not.toBe(first)
  })
})

describe('update on the Blobs store, with a writer in between', () => {
  const open = STORES['netlify-blobs']!

  it('runs the change again when another writer changed the record after it was read', async () => {
    const s = open('interleaved')
    await s.set('doc', ['first'])
    await nextMillisecond()
    const seen: string[][] = []
    const result = await s.update<string[]>('doc', async (current) => {
      seen.push(current!)
      if (seen.length === 1) {
        await nextMillisecond()
        await open('interleaved').set('doc', [...current!, 'other'])
      }
      return [...current!, 'mine']
    })
    expect(seen).toEqual([['first'], ['first', 'other']])
    expect(result).toEqual(['first', 'other', 'mine'])
    expect(await s.get('doc')).toEqual(result)
  })

  it('runs the change again when another writer created the record after it was found missing', async () => {
    const s = open('created-meanwhile')
    let calls = 0
    const result = await s.update<string[]>('doc', async (current) => {
      if (++calls === 1) await open('created-meanwhile').create('doc', ['theirs'])
      return [...(current ?? []), 'mine']
    })
    expect(calls).toBe(2)
    expect(result).toEqual(['theirs', 'mine'])
  })
})

describe('update on the Redis store', () => {
  it('loses nothing among many concurrent updates of one record', async () => {
    const s = STORES.redis!('many')
    await Promise.all(Array.from({ length: 40 }, (_, i) => s.update<number[]>('doc', (c) => [...(c ?? []), i])))
    expect(((await s.get<number[]>('doc')) ?? []).sort((a, b) => a - b)).toEqual([...Array(40).keys()])
  })

  it('runs the change again when another writer changed the record after it was read', async () => {
    const s = STORES.redis!('interleaved')
    await s.set('doc', ['first'])
    const seen: string[][] = []
    const result = await s.update<string[]>('doc', async (current) => {
      seen.push(current!)
      if (seen.length === 1) await STORES.redis!('interleaved').set('doc', [...current!, 'other'])
      return [...current!, 'mine']
    })
    expect(seen).toEqual([['first'], ['first', 'other']])
    expect(result).toEqual(['first', 'other', 'mine'])
    expect(await s.get('doc')).toEqual(result)
  })

  it('keeps a record written with a lifetime in Redis’s own expiry', async () => {
    const s = STORES.redis!('expiry')
    await s.set('short', 1, 60)
    await s.update<number>('short', (n) => (n ?? 0) + 1, 60)
    await s.create('lease', { owner: 'a' }, 30)
    await s.set('forever', 1)
    const { Redis } = await import('ioredis')
    const client = new Redis(redis.url)
    try {
      const ttl = async (key: string) => client.pttl(`store-update:expiry:${key}`)
      expect(await ttl('short')).toBeGreaterThan(50_000)
      expect(await ttl('lease')).toBeGreaterThan(20_000)
      expect(await ttl('forever')).toBe(-1)
    } finally {
      client.disconnect()
    }
  })
})

describe('a Redis that cannot be reached', () => {
  it('is a StoreUnavailableError naming the store and the reason, for reads and writes alike', async () => {
    const s = openRedisStore({ url: `redis://127.0.0.1:${await freePort()}`, prefix: 'gone:' })
    for (const call of [() => s.get('doc'), () => s.set('doc', 1), () => s.update('doc', () => 1), () => s.list('')]) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(StoreUnavailableError)
      expect((error as StoreUnavailableError).message).toMatch(
        /^the state store \(Redis at 127\.0\.0\.1:\d+, keys "gone:…"\) cannot be used: ECONNREFUSED/,
      )
    }
  })
})

describe('update on the files store, from many writers at once', () => {
  it('loses nothing among concurrent updates in one process', async () => {
    const s = STORES.files!('in-process')
    await Promise.all(Array.from({ length: 40 }, (_, i) => s.update<number[]>('doc', (c) => [...(c ?? []), i])))
    expect(((await s.get<number[]>('doc')) ?? []).sort((a, b) => a - b)).toEqual([...Array(40).keys()])
  })

  it('loses nothing among processes updating one record at once, and leaves no lock or temporary file', async () => {
    const folder = join(dir, 'files', 'processes')
    const writers = ['a', 'b', 'c', 'd']
    const runs = await Promise.all(
      writers.map((name) => runTsx([join(import.meta.dirname, 'store-writer.mjs'), folder, 'shared/doc', name, '15'])),
    )
    for (const run of runs) expect(run.code, run.stderr).toBe(0)
    const record = (await openFileStore(folder).get<string[]>('shared/doc')) ?? []
    expect(record).toHaveLength(60)
    for (const name of writers)
      expect(record.filter((e) => e.startsWith(`${name}-`))).toEqual([...Array(15).keys()].map((i) => `${name}-${i}`))
    expect(await readdir(join(folder, 'shared'))).toEqual(['doc.json'])
  })
})

describe('a Blobs store that cannot be reached', () => {
  it('is a StoreUnavailableError naming the store and the reason, for reads and writes alike', async () => {
    const server = new BlobsServer({ directory: join(dir, 'gone'), token: 'gone', logger: () => {} })
    const { port } = await server.start()
    await server.stop()
    const previous = process.env.NETLIFY_BLOBS_CONTEXT
    const edgeURL = `http://127.0.0.1:${port}`
    process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
      JSON.stringify({ edgeURL, uncachedEdgeURL: edgeURL, siteID: 'gone', token: 'gone' }),
    ).toString('base64')
    try {
      const s = openBlobsStore({ name: 'gone' })
      for (const call of [
        () => s.get('doc'),
        () => s.set('doc', 1),
        () => s.update('doc', () => 1),
        () => s.list(''),
      ]) {
        const error = await call().then(
          () => undefined,
          (e: unknown) => e,
        )
        expect(error).toBeInstanceOf(StoreUnavailableError)
        expect((error as StoreUnavailableError).message).toMatch(
          /^the state store \(Netlify Blobs store "gone"\) cannot be used: ECONNREFUSED/,
        )
      }
    } finally {
      if (previous === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT
      else process.env.NETLIFY_BLOBS_CONTEXT = previous
    }
  })
})
