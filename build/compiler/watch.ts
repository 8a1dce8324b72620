/**
 * The compiler driven by file events (`npm run dev`): every save recompiles
 * only that file and emits what depends on it at once (`emit('edit')`); once
 * edits settle, the whole-content outputs follow (`emit('full')`) and dist/ is
 * written atomically. An invalid edit prints its file:line:col errors and
 * nothing new is emitted, so the last good output stays served.
 *
 * One state machine (watch-loop.ts) decides what runs when; this file wires
 * it to the file events and to dist/.
 *
 * File events (file-events.ts) are only hints: every event also re-reads its
 * file a moment later (RECHECK_MS: an editor's later writes of the same save; a file an
 * event finds empty, a save half done, waits for that or its next event), and events
 * that never arrive at all (an overflowing inotify queue, a file replaced from
 * outside) are found by comparing every file's stat, before the full pass and
 * every few seconds.
 */
import { join } from 'node:path'
import { classify, pathKey } from '../core/sources.ts'
import type { Compiler } from './compiler.ts'
import type { BuildOutput } from './emit-schedule.ts'
import { type FileEvents, watchFiles } from './file-events.ts'
import { FULL_PASS_THREAD_MIN } from './full-pass.ts'
import { WatchLoop } from './watch-loop.ts'

const RECHECK_MS = 100
const RESCAN_MS = 5000

export interface WatchOptions {
  /** Where to write the build once changes settle; undefined keeps it in memory only. */
  distDir?: string
  /** Quiet time that closes a burst of file events (editors write in several steps). */
  debounceMs?: number
  /** Quiet time before the full pass and the dist/ write. */
  settleMs?: number
  /** Run the full pass on a worker thread (full-pass.ts); default for content of FULL_PASS_THREAD_MIN files or more. */
  offThread?: boolean
  /** Progress and content errors, one line each. */
  print: (line: string) => void
  /** Each new output to serve: after every good edit, and when a full pass completes. */
  onOutput: (output: BuildOutput) => void
  /** The build id being served (the dev server may serve a previous dist/ while the content has errors). */
  servingId: () => string | undefined
}

export interface ContentWatcher {
  /** Resolves when every change seen so far is emitted in full and written. */
  settled(): Promise<void>
  close(): Promise<void>
}

/** Emit the compiler's current content (if good), then follow content/ until closed. */
export async function watchContent(compiler: Compiler, options: WatchOptions): Promise<ContentWatcher> {
  const offThread = options.offThread ?? compiler.fileCount() >= FULL_PASS_THREAD_MIN
  let watcher: FileEvents | undefined
  const loop = new WatchLoop(compiler, {
    ...options,
    offThread,
    debounceMs: options.debounceMs ?? 3,
    settleMs: options.settleMs ?? 1000,
    // An edit may name images in another folder: follow it too.
    onUpdate: (files) => watcher?.follow(compiler.mediaFolders(files)),
  })
  await loop.start()

  /** Rechecks armed per file, each RECHECK_MS after that file's latest event. */
  const rechecks = new Map<string, NodeJS.Timeout>()
  const onEvent = (file: string) => {
    const path = classify(compiler.root, file)
    if (!path) return
    const key = pathKey(path)
    loop.fileChanged(path)
    clearTimeout(rechecks.get(key))
    loop.hold(key)
    rechecks.set(
      key,
      setTimeout(() => {
        rechecks.delete(key)
        loop.fileChanged(path, true)
        loop.release(key)
      }, RECHECK_MS),
    )
  }
  watcher = await watchFiles(join(compiler.root, 'content'), onEvent)
  watcher.follow(compiler.mediaFolders())
  // Edits made while the first build ran, before the watcher was ready.
  loop.rescan()
  const rescanTimer = setInterval(() => loop.rescan(), RESCAN_MS).unref()

  return {
    settled: () => loop.quiet(),
    close: async () => {
      clearInterval(rescanTimer)
      for (const [key, timer] of rechecks) {
        clearTimeout(timer)
        loop.release(key)
      }
      await watcher?.close()
      await loop.close()
    },
  }
}
