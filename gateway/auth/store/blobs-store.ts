/**
 * The state store on Netlify Blobs: one site-wide store read and written
 * with strong consistency, because a code issued by one function instance
 * is redeemed moments later at another. Inside a Netlify Function the
 * platform supplies the credentials; elsewhere (the keys CLI run from a
 * laptop or CI) NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN name the site.
 *
 * Blobs keep a record until it is deleted, so expired ones are swept: by the
 * scheduled function on Netlify (gateway/netlify/oauth-sweep-scheduled.ts)
 * and hourly by any long-running gateway. A listing says nothing of a
 * record's expiry, so a sweep reads each one; given a time budget, it stops
 * and the next sweep resumes after the last key it read.
 */
import { getStore, type Store } from '@netlify/blobs'
import {
  assertKey,
  assertPrefix,
  decodeSegment,
  encodeSegment,
  fromRecord,
  isExpired,
  toRecord,
  type StateStore,
} from './state-store.ts'

/** Where a sweep that ran out of time stopped (an escaped key). */
const SWEEP_CURSOR = 'sweep/cursor'
/** Records read at once by a sweep. */
const SWEEP_CONCURRENCY = 8
const DAY_SECONDS = 24 * 60 * 60

export interface BlobsStoreOptions {
  /** The store's name within the site. */
  name: string
  /** Outside Netlify: the site and a personal access token. */
  siteID?: string | undefined
  token?: string | undefined
  /** Clock in milliseconds (tests pass their own). */
  now?: () => number
}

export function openBlobsStore(options: BlobsStoreOptions): StateStore {
  // Resolved per call (cheap): inside a function the platform may renew its context per invocation.
  const blobs = (): Store =>
    options.siteID && options.token
      ? getStore({ name: options.name, consistency: 'strong', siteID: options.siteID, token: options.token })
      : getStore({ name: options.name, consistency: 'strong' })

  // Keys are stored with each segment escaped: Blobs listings re-encode some characters (spaces), never our escapes.
  const now = options.now ?? Date.now
  const encode = (key: string) => key.split('/').map(encodeSegment).join('/')
  const decode = (key: string) => key.split('/').map(decodeSegment).join('/')

  return {
    location: `Netlify Blobs store "${options.name}"`,
    async get<T>(key: string) {
      assertKey(key)
      const record: unknown = await blobs().get(encode(key), { type: 'json' })
      if (isExpired(record, now())) {
        await blobs().delete(encode(key))
        return undefined
      }
      return fromRecord<T>(record, now())
    },
    async set(key, value, ttlSeconds) {
      assertKey(key)
      await blobs().setJSON(encode(key), toRecord(value, ttlSeconds, now()))
    },
    async create(key, value, ttlSeconds) {
      assertKey(key)
      const { modified } = await blobs().setJSON(encode(key), toRecord(value, ttlSeconds, now()), { onlyIfNew: true })
      return modified
    },
    async delete(key) {
      assertKey(key)
      await blobs().delete(encode(key))
    },
    async list(prefix) {
      assertPrefix(prefix)
      const keys: string[] = []
      for await (const page of blobs().list({
        prefix: encode(prefix.slice(0, -1)) + (prefix ? '/' : ''),
        paginate: true,
      }))
        keys.push(...page.blobs.map((b) => decode(b.key)))
      return keys.sort()
    },
    async sweep({ budgetMs = Number.POSITIVE_INFINITY } = {}) {
      const started = performance.now()
      const store = blobs()
      const cursorKey = encode(SWEEP_CURSOR)
      const keys: string[] = []
      for await (const page of store.list({ paginate: true }))
        keys.push(...page.blobs.map((b) => b.key).filter((k) => k !== cursorKey))
      keys.sort()
      // From the key after the last one read, to the end; the sweep after that starts again at the beginning.
      const cursor = fromRecord<string>(await readJson(store, cursorKey), now())
      const order = cursor === undefined ? keys : keys.filter((k) => k > cursor)
      let removed = 0
      for (let i = 0; i < order.length; i += SWEEP_CONCURRENCY) {
        if (i > 0 && performance.now() - started >= budgetMs) {
          await store.setJSON(cursorKey, toRecord(order[i - 1], DAY_SECONDS, now()))
          return removed
        }
        const batch = order.slice(i, i + SWEEP_CONCURRENCY)
        const expired = await Promise.all(batch.map(async (k) => isExpired(await readJson(store, k), now())))
        // A record written again between the read and the delete goes too: the provider never reuses an id, and
        // a failed-authentication window at worst starts over.
        await Promise.all(batch.filter((_, n) => expired[n]).map((k) => store.delete(k)))
        removed += expired.filter(Boolean).length
      }
      if (cursor !== undefined) await store.delete(cursorKey)
      return removed
    },
  }
}

/** A record as JSON, or undefined when it is missing or not JSON (not ours to judge). */
async function readJson(store: Store, key: string): Promise<unknown> {
  try {
    return (await store.get(key, { type: 'json' })) as unknown
  } catch (error) {
    if (error instanceof SyntaxError) return undefined
    throw error
  }
}
