/**
 * Where runtime data lives: the API keys and the machine clients (webhook
 * subscriptions next). Never tracked in git, never build input, never
 * deployed with the code.
 *
 * - With OAUTH_STORE=files (`npm start`, `npm run dev`, the keys CLI): files,
 *   KEYS_FILE and OAUTH_CLIENTS_FILE, by default under the git-ignored
 *   gateway/.data/.
 * - With OAUTH_STORE=netlify-blobs (the Netlify function; the keys CLI with
 *   NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN): the site's Blobs, the production
 *   store, beside the people and grants.
 * - KEYS_FILE or OAUTH_CLIENTS_FILE set explicitly always names a file.
 */
import { resolve } from 'node:path'
import type { z } from 'zod'
import type { Settings } from '../../contract/settings.ts'
import type { Logger } from '../log.ts'
import { cachedFile, type FileCache } from './file-cache.ts'
import { type JsonFileKind, parseJsonFile, readJsonFile, writeJsonFile } from './json-file.ts'
import type { StateStore } from './store/state-store.ts'

/** The default files of the `files` store (git-ignored: gateway/.data/). */
export const DEFAULT_KEYS_FILE = 'gateway/.data/keys.json'
export const DEFAULT_CLIENTS_FILE = 'gateway/.data/clients.json'

/** A file, or (undefined) the state store of OAUTH_STORE. */
export type DataLocation = string | undefined

/** Where KEYS_FILE and OAUTH_CLIENTS_FILE say, with the defaults of the store. */
export function dataLocations(
  settings: Pick<Settings, 'KEYS_FILE' | 'OAUTH_CLIENTS_FILE' | 'OAUTH_STORE'>,
  root = process.cwd(),
): { keys: DataLocation; clients: DataLocation } {
  const inFiles = settings.OAUTH_STORE === 'files'
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
  write(value: T): Promise<void>
  /** The document as it changes: a revoked key reaches a running gateway. */
  follow(log?: Logger): Promise<FileCache<T>>
}

/** How long a gateway answers from a document read from the state store before reading it again. */
const STORE_REREAD_MS = 10_000

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
      write: (value) => writeJsonFile(where, schema, value),
      follow: (log) => cachedFile(where, read, log),
    }
  }
  const location = () => `${store().location}, record ${key}`
  const read = async () => {
    const raw = await store().get<unknown>(key)
    return raw === undefined ? empty : check(parseJsonFile(JSON.stringify(raw), location(), schema, kind), location())
  }
  return {
    get location() {
      return location()
    },
    read,
    write: async (value) => store().set(key, schema.parse(value)),
    async follow(log) {
      let value = await read()
      let readAt = Date.now()
      return {
        async get() {
          if (Date.now() - readAt < STORE_REREAD_MS) return value
          readAt = Date.now()
          try {
            value = await read()
          } catch (error) {
            log?.('error', 'runtime data invalid or unreadable; keeping the previous version', {
              record: key,
              error: (error as Error).message,
            })
          }
          return value
        },
      }
    },
  }
}
