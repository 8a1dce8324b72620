/**
 * What is in a files store's folder: its records, the temporary files of
 * writes in progress (or of a process that died in one) and the lock folders
 * of writes in progress. Walked folder by folder, because lock folders come
 * and go while it reads: one removed meanwhile is simply not there.
 */
import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { LOCK_SUFFIX } from './durable-file.ts'

export interface FoundEntry {
  path: string
  name: string
  kind: 'file' | 'lock'
}

/** Every file and lock folder under `base` (none when it does not exist). */
export async function walkStore(base: string): Promise<FoundEntry[]> {
  const found: FoundEntry[] = []
  const folders = [base]
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let entries: Dirent[]
    try {
      entries = await readdir(folder, { withFileTypes: true })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') continue
      throw error
    }
    for (const entry of entries) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) {
        if (entry.name.endsWith(LOCK_SUFFIX)) found.push({ path, name: entry.name, kind: 'lock' })
        else folders.push(path)
      } else if (entry.isFile()) found.push({ path, name: entry.name, kind: 'file' })
    }
  }
  return found
}

/** A temporary file of a write (write-file-atomic's `<file>.<number>`, or the `.tmp` of earlier versions). */
export function isTemporary(name: string): boolean {
  return /\.json\.\d+$/.test(name) || name.endsWith('.tmp')
}
