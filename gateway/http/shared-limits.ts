/**
 * Where the limits are counted when the state store is Redis: in Redis, by
 * rate-limiter-flexible's RateLimiterRedis (an increment and its expiry in
 * one Lua script: atomic, no read-modify-write), so every gateway draws from
 * the same windows and the RateLimit fields report the shared count. With the
 * other stores the budgets stay in each process's memory and the failed
 * authentications in the state store (failed-auth.ts).
 *
 * While Redis cannot be reached the two kinds part ways:
 * - the request budgets (`open`) count in this process's memory meanwhile
 *   (the library's insurance limiter): reads and searches go on, each
 *   gateway holding the line on its own;
 * - failed authentications (`closed`) are refused with a 503 (failed-auth.ts),
 *   never let through uncounted.
 */
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible'
import type { StoreSettings } from '../auth/store/open-store.ts'
import { redisConnection } from '../auth/store/redis-connection.ts'
import type { LimiterBackend } from './rate-limit.ts'

/** The limiters' keys, under the store's prefix: `<prefix>limits:<budget>:<key>`. */
const LIMITS = 'limits'

/** The shared backend of the store, or undefined where counts stay where they are (files, Netlify Blobs). */
export function sharedLimiterBackend(store: StoreSettings, outage: 'open' | 'closed'): LimiterBackend | undefined {
  if (store.kind !== 'redis') return undefined
  const { client } = redisConnection(store.url)
  return ({ keyPrefix, points, duration }) =>
    new RateLimiterRedis({
      storeClient: client,
      keyPrefix: keyPrefix ? `${store.prefix}${LIMITS}:${keyPrefix}` : `${store.prefix}${LIMITS}`,
      points,
      duration,
      // Not ready is an outage at once, never a request waiting for a reconnection.
      rejectIfRedisNotReady: true,
      ...(outage === 'open' ? { insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }) } : {}),
    })
}
