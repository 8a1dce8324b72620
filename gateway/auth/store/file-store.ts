/**
 * The state store as files: one JSON file per key under a folder that only
 * its owner may read (git-ignored by default, gateway/.data/). Every write
 * holds the record's lock and is durable before it answers (durable-file.ts):
 * any number of local processes share the folder, none loses another's
 * write, and a reader never sees half a record. A file system that fails
 * (full, read-only, not ours to write) is a StoreUnavailableError.
 */
import { rm, rmdir, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { readText, syncFolder, withFileLock, writeDurably } from './durable-file.ts'
import { isTemporary, walkStore } from './file-walk.ts'
import { storeFault } from './store-errors.ts'
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

const SUFFIX = '.json'
/** A temporary file or lock this old was left by a process that died mid-write. */
const STALE_TEMP_MS = 60 * 60 * 1000

export interface FileStoreOptions {
  /** Clock in milliseconds (tests pass their own). */
  now?: () => number
}

export function openFileStore(dir: string, options: FileStoreOptions = {}): StateStore {
  const now = options.now ?? Date.now
  const location = `files in ${dir}`
  const pathOf = (key: string) => {
    assertKey(key)
    const segments = key.split('/').map(encodeSegment)
    return join(dir, ...segments.slice(0, -1), `${segments.at(-1)}${SUFFIX}`)
  }
  /** `work`, its system errors as StoreUnavailableError. */
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      throw storeFault(location, error)
    }
  }

  async function read(path: string): Promise<unknown> {
    const text = await readText(path)
    try {
      return text === undefined ? undefined : (JSON.parse(text) as unknown)
    } catch {
      // Not ours (our writes are whole): nothing is there.
      return undefined
    }
  }
  const write = (path: string, value: unknown, ttlSeconds: number | undefined) =>
    writeDurably(path, JSON.stringify(toRecord(value, ttlSeconds, now())))
  const remove = async (path: string) => {
    await rm(path, { force: true })
    await syncFolder(dirname(path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
  }
  /**
   * `work` under the record's lock, only when the record is there: removing what is not there takes
   * no lock and makes no folder (a sweep or a delete never brings back a folder just removed).
   */
  const ifPresent = async (path: string, work: () => Promise<boolean>) =>
    (await readText(path)) !== undefined && withFileLock(path, work)
  /** Remove the record if it has expired (a sweep, a read), checked again under the lock; true when removed. */
  const removeIfExpired = async (path: string) =>
    isExpired(await read(path), now()) &&
    ifPresent(path, async () => {
      if (!isExpired(await read(path), now())) return false
      await remove(path)
      return true
    })

  return {
    location,
    get: <T>(key: string) =>
      guarded(async () => {
        const path = pathOf(key)
        const record = await read(path)
        if (isExpired(record, now())) {
          // Gone either way; removing it is the sweep's job too, so a read never fails for it.
          await removeIfExpired(path).catch(() => undefined)
          return undefined
        }
        return fromRecord<T>(record, now())
      }),
    record: (key) => guarded(async () => liveRecord(await read(pathOf(key)), now())),
    set: async (key, value, ttlSeconds) => {
      const path = pathOf(key)
      return guarded(() => withFileLock(path, () => write(path, value, ttlSeconds)))
    },
    create: async (key, value, ttlSeconds) => {
      const path = pathOf(key)
      return guarded(() =>
        withFileLock(path, async () => {
          // Any record holds its key, expired or not: one winner, and a key is never reused.
          if ((await readText(path)) !== undefined) return false
          await write(path, value, ttlSeconds)
          return true
        }),
      )
    },
    update: async <T>(
      key: string,
      change: (current: T | undefined) => T | undefined | Promise<T | undefined>,
      ttlSeconds?: number,
    ) => {
      const path = pathOf(key)
      return guarded(() =>
        withFileLock(path, async () => {
          const current = fromRecord<T>(await read(path), now())
          const next = await change(current)
          if (next === undefined) return current
          await write(path, next, ttlSeconds)
          return next
        }),
      )
    },
    delete: async (key) => {
      const path = pathOf(key)
      return guarded(async () => {
        await ifPresent(path, async () => {
          await remove(path)
          return true
        })
      })
    },
    version: async (key) => {
      const path = pathOf(key)
      return guarded(async () => {
        // Each write is a new file renamed into place: a new inode, and its own mtime and size.
        const s = await stat(path).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined
          throw error
        })
        return s && `${s.ino}:${s.mtimeMs}:${s.size}`
      })
    },
    list: async (prefix) => {
      assertPrefix(prefix)
      const base = join(dir, ...prefix.split('/').filter(Boolean).map(encodeSegment))
      return guarded(async () =>
        (await walkStore(base))
          .filter((e) => e.kind === 'file' && e.name.endsWith(SUFFIX))
          .map((e) => relative(base, e.path).slice(0, -SUFFIX.length))
          .map((rel) => prefix + rel.split(sep).map(decodeSegment).join('/'))
          .sort(),
      )
    },
    sweep: () =>
      guarded(async () => {
        let removed = 0
        for (const entry of await walkStore(dir)) {
          if (entry.kind === 'file' && entry.name.endsWith(SUFFIX)) {
            if (await removeIfExpired(entry.path)) removed++
          } else if (entry.kind === 'lock' || isTemporary(entry.name)) {
            const age = Date.now() - ((await stat(entry.path).catch(() => undefined))?.mtimeMs ?? Date.now())
            if (age <= STALE_TEMP_MS) continue
            await (entry.kind === 'lock' ? rmdir(entry.path) : rm(entry.path, { force: true })).catch(() => undefined)
            removed++
          }
        }
        return removed
      }),
  }
}
