/**
 * The state store on Redis, for gateways on several machines that share no
 * disk and no Netlify: one string per key under the key prefix
 * (REDIS_KEY_PREFIX, so sites can share one Redis), holding the same record
 * as the other stores (`{ v, exp }`, JSON), so runtime data moves between
 * stores unchanged (`npm run keys -- migrate`).
 *
 * - What expires is given Redis's own expiry (PX): Redis deletes it.
 * - `create` is SET NX; `update` a compare-and-swap, a Lua script that writes
 *   only while the record is still the one read (else it reads again), as the
 *   Blobs store's ETag; `version` is the record's SHA-1, computed inside Redis.
 *   No read-modify-write race, in any process on any machine.
 * - Durability is Redis's: run it with AOF persistence (docs/operating.md).
 * - A Redis that cannot be reached, or refuses a command, is a
 *   StoreUnavailableError: 503 for requests, one line for the CLI.
 */
import type { Redis } from 'ioredis'
import { redisConnection, type RedisConnection } from './redis-connection.ts'
import { StoreUnavailableError, storeFault } from './store-errors.ts'
import { assertKey, assertPrefix, fromRecord, isExpired, liveRecord, type StateStore, toRecord } from './state-store.ts'

/** Tries of a read-modify-write whose record others keep changing. */
const UPDATE_TRIES = 25
/** Keys asked for per SCAN call, and records read per MGET of a sweep. */
const SCAN_COUNT = 1000

/** Write ARGV[2] (with expiry ARGV[3] ms, 0 for none) only while the record is ARGV[1] ('' for none). */
const SWAP = `
local current = redis.call('GET', KEYS[1])
if ARGV[1] == '' then
  if current then return 0 end
elseif current ~= ARGV[1] then
  return 0
end
if ARGV[3] == '0' then redis.call('SET', KEYS[1], ARGV[2]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`
/** Delete the record only while it is ARGV[1] (an expired one read by a sweep, not one written since). */
const DELETE_IF = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`
const VERSION = `
local current = redis.call('GET', KEYS[1])
if not current then return false end
return redis.sha1hex(current)`

export interface RedisStoreOptions {
  /** REDIS_URL. */
  url: string
  /** REDIS_KEY_PREFIX: every key this store writes starts with it. */
  prefix: string
  /** Clock in milliseconds for what a record says of its expiry (tests move it); Redis's own expiry is real time. */
  now?: () => number
}

export function openRedisStore(options: RedisStoreOptions): StateStore {
  const connection = redisConnection(options.url)
  const { prefix } = options
  const now = options.now ?? Date.now
  const location = `${connection.location}, keys "${prefix}…"`
  const keyOf = (key: string) => {
    assertKey(key)
    return prefix + key
  }
  /** `work` with the client; anything the client or the server throws is the store being unavailable. */
  const guarded = async <T>(work: (client: Redis) => Promise<T>): Promise<T> => {
    let client: Redis
    try {
      client = await connection.usable()
    } catch (error) {
      throw storeFault(location, unavailable(location, connection, error))
    }
    try {
      return await work(client)
    } catch (error) {
      throw storeFault(location, unavailable(location, connection, error))
    }
  }
  const encode = (value: unknown, ttlSeconds: number | undefined) => JSON.stringify(toRecord(value, ttlSeconds, now()))
  const expiryMs = (ttlSeconds: number | undefined) => (ttlSeconds === undefined ? 0 : Math.ceil(ttlSeconds * 1000))
  const parse = (text: string | null): unknown => {
    if (text === null) return undefined
    try {
      return JSON.parse(text) as unknown
    } catch {
      return undefined
    }
  }
  /** The raw text and its record, a record expired by the store's clock deleted (unless written again meanwhile). */
  const read = (key: string) =>
    guarded(async (client) => {
      const text = await client.get(key)
      const record = parse(text)
      if (text !== null && isExpired(record, now())) {
        await client.eval(DELETE_IF, 1, key, text)
        return { text: null, record: undefined }
      }
      return { text, record }
    })

  return {
    location,
    get: async <T>(key: string) => fromRecord<T>((await read(keyOf(key))).record, now()),
    record: async (key) => liveRecord((await read(keyOf(key))).record, now()),
    set: async (key, value, ttlSeconds) => {
      const k = keyOf(key)
      const text = encode(value, ttlSeconds)
      const ms = expiryMs(ttlSeconds)
      return guarded(async (client) => {
        await (ms ? client.set(k, text, 'PX', ms) : client.set(k, text))
      })
    },
    create: async (key, value, ttlSeconds) => {
      const k = keyOf(key)
      const text = encode(value, ttlSeconds)
      const ms = expiryMs(ttlSeconds)
      return guarded(
        async (client) => (await (ms ? client.set(k, text, 'PX', ms, 'NX') : client.set(k, text, 'NX'))) === 'OK',
      )
    },
    update: async <T>(
      key: string,
      change: (current: T | undefined) => T | undefined | Promise<T | undefined>,
      ttlSeconds?: number,
    ) => {
      const k = keyOf(key)
      for (let attempt = 0; attempt < UPDATE_TRIES; attempt++) {
        const text = await guarded((client) => client.get(k))
        const current = fromRecord<T>(parse(text), now())
        // Outside `guarded`: what the change throws is the caller's, never the store's fault.
        const next = await change(current)
        if (next === undefined) return current
        const written = encode(next, ttlSeconds)
        const swapped = await guarded((client) =>
          client.eval(SWAP, 1, k, text ?? '', written, String(expiryMs(ttlSeconds))),
        )
        if (swapped === 1) return next
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 10 * 2 ** attempt)))
      }
      throw storeFault(
        location,
        new StoreUnavailableError(location, `record ${key.split('/')[0]}/… kept changing under other writers`),
      )
    },
    delete: async (key) => {
      const k = keyOf(key)
      return guarded(async (client) => {
        await client.del(k)
      })
    },
    version: async (key) => {
      const k = keyOf(key)
      return guarded(async (client) => ((await client.eval(VERSION, 1, k)) as string | null) ?? undefined)
    },
    list: async (listed) => {
      assertPrefix(listed)
      return guarded(async (client) => (await scan(client, prefix + listed)).map((k) => k.slice(prefix.length)).sort())
    },
    sweep: ({ budgetMs = Number.POSITIVE_INFINITY } = {}) =>
      guarded(async (client) => {
        // Redis deletes what expires on its own; this finds what the store's clock has expired before it (a clock moved ahead).
        const started = performance.now()
        const keys = await scan(client, prefix)
        let removed = 0
        for (let i = 0; i < keys.length && performance.now() - started <= budgetMs; i += SCAN_COUNT) {
          const batch = keys.slice(i, i + SCAN_COUNT)
          const texts = await client.mget(...batch)
          for (const [n, text] of texts.entries())
            if (text !== null && isExpired(parse(text), now()))
              removed += Number(await client.eval(DELETE_IF, 1, batch[n]!, text))
        }
        return removed
      }),
  }
}

/** Every key that starts with `start`, by SCAN (a glob with its special characters escaped). */
async function scan(client: Redis, start: string): Promise<string[]> {
  const pattern = `${start.replace(/[*?[\]\\]/g, '\\$&')}*`
  const found = new Set<string>()
  let cursor = '0'
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT)
    for (const key of keys) found.add(key)
    cursor = next
  } while (cursor !== '0')
  return [...found]
}

/** The client's or the server's error as the store being unavailable, with the connection's own reason when it is down. */
function unavailable(location: string, connection: RedisConnection, error: unknown): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error
  const message = error instanceof Error ? error.message : String(error)
  const reason = connection.reachable() ? message.slice(0, 200) : connection.reason()
  return new StoreUnavailableError(location, reason, { cause: error })
}
