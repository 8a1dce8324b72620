/**
 * The state store on Netlify Blobs: one site-wide store read and written
 * with strong consistency, because a code issued by one function instance
 * is redeemed moments later at another. Inside a Netlify Function the
 * platform supplies the credentials; elsewhere (the keys CLI run from a
 * laptop or CI) NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN name the site.
 *
 * Read-modify-write is a compare-and-swap on the record's ETag (`onlyIfMatch`,
 * `onlyIfNew` for a record not there yet), read again on a conflict: no
 * concurrent writer's change is lost. A Blobs that cannot be reached or
 * answers an error is a StoreUnavailableError.
 *
 * Blobs keep a record until it is deleted, so expired ones are swept: by the
 * scheduled function on Netlify (gateway/netlify/oauth-sweep-scheduled.ts)
 * and hourly by any long-running gateway (blobs-sweep.ts).
 */
import { getStore, type Store } from '@netlify/blobs'
import { readJson, sweepBlobs } from './blobs-sweep.ts'
import { StoreUnavailableError, storeFault } from './store-errors.ts'
import {
  assertKey,
  assertPrefix,
  decodeSegment,
  encodeSegment,
  fromRecord,
  isExpired,
  liveRecord,
  toRecord,
  type StateStore,
} from './state-store.ts'

/** Tries of a read-modify-write whose record others keep changing. */
const UPDATE_TRIES = 25

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
  const location = `Netlify Blobs store "${options.name}"`
  const encode = (key: string) => {
    assertKey(key)
    return key.split('/').map(encodeSegment).join('/')
  }
  const decode = (key: string) => key.split('/').map(decodeSegment).join('/')
  const guarded = async <T>(work: (store: Store) => Promise<T>): Promise<T> => {
    const store = blobs()
    try {
      return await work(store)
    } catch (error) {
      throw storeFault(location, error)
    }
  }

  return {
    location,
    get: <T>(key: string) =>
      guarded(async (store) => {
        const record = await readJson(store, encode(key))
        if (isExpired(record, now())) {
          await store.delete(encode(key))
          return undefined
        }
        return fromRecord<T>(record, now())
      }),
    record: (key) => guarded(async (store) => liveRecord(await readJson(store, encode(key)), now())),
    set: (key, value, ttlSeconds) =>
      guarded(async (store) => {
        await store.setJSON(encode(key), toRecord(value, ttlSeconds, now()))
      }),
    create: (key, value, ttlSeconds) =>
      guarded(async (store) => {
        const { modified } = await store.setJSON(encode(key), toRecord(value, ttlSeconds, now()), { onlyIfNew: true })
        return modified
      }),
    update: <T>(
      key: string,
      change: (current: T | undefined) => T | undefined | Promise<T | undefined>,
      ttlSeconds?: number,
    ) =>
      guarded(async (store) => {
        const blob = encode(key)
        for (let attempt = 0; attempt < UPDATE_TRIES; attempt++) {
          const { record, etag } = await readVersioned(store, blob)
          const current = fromRecord<T>(record, now())
          const next = await change(current)
          if (next === undefined) return current
          const body = toRecord(next, ttlSeconds, now())
          const { modified } =
            etag === undefined
              ? await store.setJSON(blob, body, { onlyIfNew: true })
              : await store.setJSON(blob, body, { onlyIfMatch: etag })
          if (modified) return next
          await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 10 * 2 ** attempt)))
        }
        throw new StoreUnavailableError(location, `record ${key.split('/')[0]}/… kept changing under other writers`)
      }),
    delete: (key) => guarded((store) => store.delete(encode(key))),
    version: (key) =>
      guarded(async (store) => {
        const blob = encode(key)
        // The ETag of a HEAD; Netlify's local server answers none (see readVersioned), its listing does.
        return (await store.getMetadata(blob))?.etag ?? (await listedEtag(store, blob))
      }),
    list: async (prefix) => {
      assertPrefix(prefix)
      return guarded(async (store) => {
        const keys: string[] = []
        const listed = prefix ? `${prefix.slice(0, -1).split('/').map(encodeSegment).join('/')}/` : ''
        for await (const page of store.list({ prefix: listed, paginate: true }))
          keys.push(...page.blobs.map((b) => decode(b.key)))
        return keys.sort()
      })
    },
    sweep: ({ budgetMs = Number.POSITIVE_INFINITY } = {}) => guarded((store) => sweepBlobs(store, now, budgetMs)),
  }
}

/**
 * A record and the ETag it was read with (none when there is no record). Netlify's local
 * server sends no ETag with a record (the service does), only in listings: there the ETag is
 * read first and the record after, so a record newer than its ETag fails the condition.
 */
async function readVersioned(store: Store, blob: string): Promise<{ record?: unknown; etag?: string | undefined }> {
  const got = await store.getWithMetadata(blob, { type: 'json' }).catch((error: unknown) => {
    if (error instanceof SyntaxError) return { data: undefined, etag: undefined }
    throw error
  })
  if (!got) return {}
  if (got.etag) return { record: got.data, etag: got.etag }
  const etag = await listedEtag(store, blob)
  return { record: await readJson(store, blob), etag }
}

async function listedEtag(store: Store, blob: string): Promise<string | undefined> {
  const { blobs } = await store.list({ prefix: blob })
  return blobs.find((b) => b.key === blob)?.etag
}
