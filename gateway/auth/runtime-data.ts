/**
 * Where runtime data lives: the API keys and the machine clients (the people
 * and webhook subscriptions are records of the state store). Never tracked
 * in git, never build input, never deployed with the code. Each is one JSON
 * document, changed only as one step (`update`: the file's lock, or the
 * store's compare-and-swap), so concurrent CLI runs and gateways lose nothing.
 *
 * - With STATE_STORE=files (`npm start`, `npm run dev`, the keys CLI): files,
 *   KEYS_FILE and OAUTH_CLIENTS_FILE, by default under the git-ignored
 *   gateway/.data/.
 * - With STATE_STORE=netlify-blobs (the Netlify function; the keys CLI with
 *   NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN): the site's Blobs, the production
 *   store, beside the people and grants.
 * - KEYS_FILE or OAUTH_CLIENTS_FILE set explicitly always names a file.
 */
import { resolve } from 'node:path'
import type { z } from 'zod'
import type { Settings } from '../../contract/settings.ts'
import type { Logger } from '../log.ts'
import { cachedFile, type FileCache } from './file-cache.ts'
import { type JsonFileKind, parseJsonFile, readJsonFile, updateJsonFile } from './json-file.ts'
import type { StateStore } from './store/state-store.ts'

/** The default files of the `files` store (git-ignored: gateway/.data/). */
export const DEFAULT_KEYS_FILE = 'gateway/.data/keys.json'
export const DEFAULT_CLIENTS_FILE = 'gateway/.data/clients.json'

/** A file, or (undefined) the state store of STATE_STORE. */
export type DataLocation = string | undefined

/** Where KEYS_FILE and OAUTH_CLIENTS_FILE say, with the defaults of the store. */
export function dataLocations(
  settings: Pick<Settings, 'KEYS_FILE' | 'OAUTH_CLIENTS_FILE' | 'STATE_STORE'>,
  root = process.cwd(),
): { keys: DataLocation; clients: DataLocation } {
  const inFiles = settings.STATE_STORE === 'files'
  const at = (given: string | undefined, fallback: string) =>
    given !== undefined ? resolve(root, given) : inFiles ? resolve(root, fallback) : undefined
  return {
    keys: at(settings.KEYS_FILE, DEFAULT_KEYS_FILE),
    clients: at(settings.OAUTH_CLIENTS_FILE, DEFAULT_CLIENTS_FILE),
  }
}

/** One JSON document of runtime data, validated on every read. */
export interface DataDocument<T> {
  /** Where it is, for messages (never a secret). */
  readonly location: string
  read(): Promise<T>
  /**
   * Change it as one step (the file's lock, or the store's update): `change` gets the current
   * document and returns the new one, and may run more than once (keep it free of side effects);
   * a change that throws writes nothing. What was written is returned, durably stored.
   */
  update(change: (current: T) => T): Promise<T>
  /** The document as it changes: a revoked key reaches a running gateway. */
  follow(log?: Logger): Promise<FileCache<T>>
}

/**
 * How long a gateway answers from a document of the state store before asking whether it changed
 * (a stat, or the record's ETag): a revocation reaches every gateway within it.
 */
export const STORE_RECHECK_MS = 500

export function dataDocument<T>(
  where: DataLocation,
  store: () => StateStore,
  key: string,
  schema: z.ZodType<T>,
  kind: JsonFileKind,
  empty: T,
  check: (value: T, location: string) => T = (value) => value,
): DataDocument<T> {
  if (where !== undefined) {
    const read = (path: string) => readJsonFile(path, schema, kind, empty).then((value) => check(value, path))
    return {
      location: where,
      read: () => read(where),
      update: (change) => updateJsonFile(where, schema, () => read(where), change),
      follow: (log) => cachedFile(where, read, log),
    }
  }
  const location = () => `${store().location}, record ${key}`
  const parse = (raw: unknown) =>
    raw === undefined ? empty : check(parseJsonFile(JSON.stringify(raw), location(), schema, kind), location())
  const read = async () => parse(await store().get<unknown>(key))
  return {
    get location() {
      return location()
    },
    read,
    update: async (change) => {
      const written = await store().update<unknown>(key, (raw) => schema.parse(change(parse(raw))))
      return parse(written)
    },
    follow: (log) => followRecord(store, key, read, log),
  }
}

/** The document of `key` as it changes: its version asked at most every STORE_RECHECK_MS, the document read again when it changed. */
async function followRecord<T>(
  store: () => StateStore,
  key: string,
  read: () => Promise<T>,
  log: Logger | undefined,
): Promise<FileCache<T>> {
  let version = await store().version(key)
  let value = await read()
  let checkedAt = Date.now()
  let checking: Promise<void> | undefined
  const recheck = async () => {
    try {
      const current = await store().version(key)
      if (current !== version) {
        value = await read()
        version = current
      }
    } catch (error) {
      log?.('error', 'runtime data invalid or unreadable; keeping the previous version', {
        record: key,
        error: (error as Error).message,
      })
    }
  }
  return {
    async get() {
      if (Date.now() - checkedAt >= STORE_RECHECK_MS) {
        checkedAt = Date.now()
        checking ??= recheck().finally(() => (checking = undefined))
      }
      // Every caller waits for a check in progress: none answers from what it may have just replaced.
      if (checking) await checking
      return value
    },
  }
}
