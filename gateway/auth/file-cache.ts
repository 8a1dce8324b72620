/**
 * A parsed config file that follows edits: re-read when the file's mtime,
 * size or inode changes (checked on use, a single stat), so the keys CLI's
 * changes reach a running gateway. A broken edit keeps the last good value.
 */
import { stat } from 'node:fs/promises'
import type { Logger } from '../log.ts'

export interface FileCache<T> {
  get(): Promise<T>
}

export async function cachedFile<T>(
  path: string,
  read: (path: string) => Promise<T>,
  log?: Logger,
): Promise<FileCache<T>> {
  let stamp = await fileStamp(path)
  let value = await read(path)
  return {
    async get() {
      const current = await fileStamp(path)
      if (current === stamp) return value
      try {
        value = await read(path)
        stamp = current
      } catch (error) {
        log?.('error', 'config file invalid; keeping the previous version', {
          file: path,
          error: (error as Error).message,
        })
      }
      return value
    },
  }
}

async function fileStamp(path: string): Promise<string> {
  try {
    const s = await stat(path)
    return `${s.mtimeMs}:${s.size}:${s.ino}`
  } catch {
    return 'missing'
  }
}
