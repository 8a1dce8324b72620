/**
 * The state store as files: one JSON file per key under a folder that only
 * its owner may read (git-ignored by default, gateway/.data/). Writes go
 * through a temporary file and a rename, so a reader never sees half a
 * record, and several local processes can share the folder.
 */
import { randomBytes } from 'node:crypto'
import type { Dirent } from 'node:fs'
import { link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
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

const SUFFIX = '.json'
/** A temporary file this old was left by a process that died mid-write. */
const STALE_TEMP_MS = 60 * 60 * 1000

export interface FileStoreOptions {
  /** Clock in milliseconds (tests pass their own). */
  now?: () => number
}

export function openFileStore(dir: string, options: FileStoreOptions = {}): StateStore {
  const now = options.now ?? Date.now
  const pathOf = (key: string) => {
    assertKey(key)
    const segments = key.split('/').map(encodeSegment)
    return join(dir, ...segments.slice(0, -1), `${segments.at(-1)}${SUFFIX}`)
  }

  async function read(path: string): Promise<unknown> {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as unknown
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // Missing, or a record cut short by a crash before the rename: nothing is there.
      if (code === 'ENOENT' || error instanceof SyntaxError) return undefined
      throw error
    }
  }

  return {
    location: `files in ${dir}`,
    async get<T>(key: string) {
      const path = pathOf(key)
      const record = await read(path)
      if (isExpired(record, now())) {
        await rm(path, { force: true })
        return undefined
      }
      return fromRecord<T>(record, now())
    },
    async set(key, value, ttlSeconds) {
      const path = pathOf(key)
      await mkdir(dirname(path), { recursive: true, mode: 0o700 })
      const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`
      await writeFile(temp, JSON.stringify(toRecord(value, ttlSeconds, now())), { mode: 0o600 })
      await rename(temp, path)
    },
    async create(key, value, ttlSeconds) {
      const path = pathOf(key)
      await mkdir(dirname(path), { recursive: true, mode: 0o700 })
      const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`
      await writeFile(temp, JSON.stringify(toRecord(value, ttlSeconds, now())), { mode: 0o600 })
      try {
        // A hard link fails when the name exists: whole records only, and one winner.
        await link(temp, path)
        return true
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
        throw error
      } finally {
        await rm(temp, { force: true })
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
    async list(prefix) {
      assertPrefix(prefix)
      const base = join(dir, ...prefix.split('/').filter(Boolean).map(encodeSegment))
      let entries: Dirent[]
      try {
        entries = await readdir(base, { recursive: true, withFileTypes: true })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
        throw error
      }
      return entries
        .filter((e) => e.isFile() && e.name.endsWith(SUFFIX))
        .map((e) => relative(base, join(e.parentPath, e.name)).slice(0, -SUFFIX.length))
        .map((rel) => prefix + rel.split(sep).map(decodeSegment).join('/'))
        .sort()
    },
    async sweep() {
      let entries: Dirent[]
      try {
        entries = await readdir(dir, { recursive: true, withFileTypes: true })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
        throw error
      }
      let removed = 0
      for (const entry of entries.filter((e) => e.isFile())) {
        const path = join(entry.parentPath, entry.name)
        const stale = entry.name.endsWith('.tmp')
          ? Date.now() - ((await stat(path).catch(() => undefined))?.mtimeMs ?? Date.now()) > STALE_TEMP_MS
          : entry.name.endsWith(SUFFIX) && isExpired(await read(path).catch(() => undefined), now())
        if (stale) {
          await rm(path, { force: true })
          removed++
        }
      }
      return removed
    },
  }
}
