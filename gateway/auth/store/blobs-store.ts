/**
 * The state store on Netlify Blobs: one site-wide store read and written
 * with strong consistency, because a code issued by one function instance
 * is redeemed moments later at another. Inside a Netlify Function the
 * platform supplies the credentials; elsewhere (the keys CLI run from a
 * laptop or CI) NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN name the site.
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
  }
}
