/**
 * File events on content/: one `fs.watch` (inotify on Linux) per folder the
 * build reads, content/ itself (site.yaml, collection folders coming and
 * going) and each folder that may hold a collection (sources.ts
 * isCollectionFolder), whether site.yaml names it yet or not. Each event names its file and nothing
 * is scanned: chokidar read an edited file's whole folder again on every
 * event (a stat of every file beside it before the edit was even reported),
 * and Node's recursive watch walks the tree. Events are hints (the
 * watch loop reads the file and compares its hash); what they miss (an
 * overflowing inotify queue) the loop's stat scan finds.
 *
 * Images may sit deeper (`content/blog-posts/<slug>/cover.jpg`) or beside
 * the collections (`content/people/`): the watch follows the folders of the
 * images the content uses as the compiler names them (`follow`), and one of
 * those made later as soon as an event in its parent shows it.
 */
import { type FSWatcher, readdir, readdirSync, watch } from 'node:fs'
import { join } from 'node:path'
import { isCollectionFolder } from '../core/sources.ts'

export interface FileEvents {
  /** Follow these folders (absolute paths) too, from now on: those of the images the content uses. */
  follow(folders: Iterable<string>): void
  close(): Promise<void>
}

/** Follow content/ at `dir`: `onEvent` gets the absolute path of each file that may have changed. */
export async function watchFiles(dir: string, onEvent: (file: string) => void): Promise<FileEvents> {
  const folders = new Map<string, FSWatcher>()
  /** Image folders: asked for, and those of them followed (a folder not made yet is followed once it appears). */
  const wanted = new Set<string>()
  const others = new Map<string, FSWatcher>()
  let closed = false
  const report = (file: string) => {
    onEvent(file)
    if (wanted.has(file) && !others.has(file)) watchFolder(others, file, file, true)
  }
  /** Watch `folder` as `key` of `into`; report its files when it has just appeared. */
  const watchFolder = (into: Map<string, FSWatcher>, key: string, folder: string, appeared: boolean) => {
    if (closed || into.has(key)) return
    try {
      const watcher = watch(folder, (_event, name) => name && report(join(folder, String(name))))
      watcher.on('error', () => {
        // The folder went away: its parent's events bring it back if it returns.
        watcher.close()
        into.delete(key)
      })
      into.set(key, watcher)
    } catch {
      return
    }
    if (appeared)
      readdir(folder, (error, names) => {
        for (const name of error ? [] : names) report(join(folder, name))
      })
  }
  const top = watch(dir, (_event, name) => {
    if (!name) return
    const entry = String(name)
    if (!isCollectionFolder(entry)) return report(join(dir, entry))
    // A collection's folder came or went (or was replaced): follow it anew; its files are reported
    // when it is new, and what a replaced one changed the loop's stat scan finds.
    const known = folders.has(entry)
    folders.get(entry)?.close()
    folders.delete(entry)
    watchFolder(folders, entry, join(dir, entry), !known)
  })
  // Every folder that may hold a collection: one site.yaml adds later is followed already.
  const existing = (() => {
    try {
      return readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && isCollectionFolder(e.name))
        .map((e) => e.name)
    } catch {
      return []
    }
  })()
  for (const collection of existing) watchFolder(folders, collection, join(dir, collection), false)
  const own = new Set([dir, ...existing.map((c) => join(dir, c))])
  return {
    follow: (more) => {
      for (const folder of more) {
        if (own.has(folder) || wanted.has(folder)) continue
        wanted.add(folder)
        watchFolder(others, folder, folder, false)
      }
    },
    close: async () => {
      closed = true
      top.close()
      for (const watcher of [...folders.values(), ...others.values()]) watcher.close()
    },
  }
}
