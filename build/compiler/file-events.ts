/**
 * File events on content/: one `fs.watch` (inotify on Linux) per folder the
 * build reads, content/ itself (site.yaml, collection folders coming and
 * going) and each collection's folder. Each event names its file and nothing
 * is scanned: chokidar read an edited file's whole folder again on every
 * event (15,000 lstats at 30,000 items, 40–200 ms before the edit was even
 * reported), and Node's recursive watch walks the tree. Events are hints (the
 * watch loop reads the file and compares its hash); what they miss (an
 * overflowing inotify queue) the loop's stat scan finds.
 */
import { type FSWatcher, readdir, watch } from 'node:fs'
import { join } from 'node:path'
import { COLLECTION_NAMES, isCollectionName } from '../../contract/collections.ts'

export interface FileEvents {
  close(): Promise<void>
}

/** Follow content/ at `dir`: `onEvent` gets the absolute path of each file that may have changed. */
export async function watchFiles(dir: string, onEvent: (file: string) => void): Promise<FileEvents> {
  const folders = new Map<string, FSWatcher>()
  let closed = false
  /** Watch one collection's folder, when it exists; report its files when it has just appeared. */
  const follow = (collection: string, appeared: boolean) => {
    if (closed || folders.has(collection)) return
    const folder = join(dir, collection)
    try {
      const watcher = watch(folder, (_event, name) => name && onEvent(join(folder, String(name))))
      watcher.on('error', () => {
        // The folder went away: content/'s own events bring it back if it returns.
        watcher.close()
        folders.delete(collection)
      })
      folders.set(collection, watcher)
    } catch {
      return
    }
    if (appeared)
      readdir(folder, (error, names) => {
        for (const name of error ? [] : names) onEvent(join(folder, name))
      })
  }
  const top = watch(dir, (_event, name) => {
    if (!name) return
    const entry = String(name)
    if (!isCollectionName(entry)) return onEvent(join(dir, entry))
    // A collection's folder came or went (or was replaced): follow it anew; its files are reported
    // when it is new, and what a replaced one changed the loop's stat scan finds.
    const known = folders.has(entry)
    folders.get(entry)?.close()
    folders.delete(entry)
    follow(entry, !known)
  })
  for (const collection of COLLECTION_NAMES) follow(collection, false)
  return {
    close: async () => {
      closed = true
      top.close()
      for (const watcher of folders.values()) watcher.close()
    },
  }
}
