/**
 * The compiler driven by file events (`npm run dev`): every save recompiles
 * only that file and emits what depends on it at once (`emit('edit')`); once
 * edits settle, the whole-content outputs follow (`emit('full')`) and dist/ is
 * written atomically. An invalid edit prints its file:line:col errors and
 * nothing new is emitted, so the last good output stays served.
 *
 * File events are only hints. chokidar drops a file's 'change' events for
 * 50 ms after one it emits (an author's second save inside that window is
 * never reported), so every event also re-reads its file once the window has
 * passed; and events that never arrive at all (an overflowing inotify queue,
 * a file replaced from outside) are found by comparing every file's stat,
 * before the full pass and every few seconds.
 */
import { join } from 'node:path'
import type { ContentError } from '../core/errors.ts'
import { writeDistAtomically } from '../emit/write.ts'
import type { BuildOutput, Compiler } from './compiler.ts'
import { watchFiles } from './file-events.ts'
import { FULL_PASS_THREAD_MIN, FullPassThread } from './full-pass.ts'
import { classify, pathKey, type ContentPath } from '../core/sources.ts'

const RECHECK_MS = 100
const RESCAN_MS = 5000

export interface WatchOptions {
  /** Where to write the build once changes settle; undefined keeps it in memory only. */
  distDir?: string
  /** Quiet time that closes a burst of file events (editors write in several steps). */
  debounceMs?: number
  /** Quiet time before the full pass and the dist/ write. */
  settleMs?: number
  /**
   * Run the full pass (full-pass.ts) and chokidar (file-events.ts) on worker
   * threads; default for content of FULL_PASS_THREAD_MIN files or more.
   */
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
  const { print } = options
  const offThread = options.offThread ?? compiler.fileCount() >= FULL_PASS_THREAD_MIN
  const debounceMs = options.debounceMs ?? 10
  const settleMs = options.settleMs ?? 1000

  // One change at a time, in order; file events queue up while one is applied.
  let queue: Promise<void> = Promise.resolve()
  let pending = new Map<string, ContentPath>()
  let debounce: NodeJS.Timeout | undefined
  let settle: NodeJS.Timeout | undefined
  /** Timers armed and not yet fired. */
  const armed = { debounce: false, settle: false }
  let settling: Promise<void> = Promise.resolve()
  let writing: Promise<void> = Promise.resolve()
  const report = (error: unknown) => print(`✗ ${String(error)}`)
  /** The full pass's worker, once the first build is out; and the paths it has not been told about. */
  let thread: FullPassThread | undefined
  let untold = new Map<string, ContentPath>()
  const editWaiting = () => armed.debounce || pending.size > 0
  /** Waiters woken by the next file event: a full pass in progress gives way to an edit. */
  const eventWaiters = new Set<() => void>()
  const untilEvent = <T>(work: Promise<T>): Promise<T | undefined> => {
    if (armed.debounce || pending.size) return Promise.resolve(undefined)
    let wake: () => void = () => undefined
    const event = new Promise<undefined>((resolve) => eventWaiters.add((wake = () => resolve(undefined))))
    return Promise.race([work, event]).finally(() => eventWaiters.delete(wake))
  }
  /** Warnings already printed: each is said once, not on every full pass. */
  let warned = ''
  const warn = (output: BuildOutput) => {
    const text = output.warnings.join('\n')
    if (text && text !== warned) for (const w of output.warnings) print(`! ${w}`)
    warned = text
  }

  const apply = async () => {
    const paths = [...pending.values()]
    pending = new Map()
    if (!paths.length) return
    const started = performance.now()
    for (const path of paths) untold.set(pathKey(path), path)
    const update = await compiler.update(paths)
    if (!update) {
      // Nothing differs from what is compiled (a recheck, a touch); a full pass this interrupted comes back.
      if (!compiler.isComplete() && compiler.current().ok && !armed.settle) scheduleSettle()
      return
    }
    if (!update.state.ok) return reportErrors(print, update.state.errors.errors, options.servingId())
    const output = (await compiler.emit('edit'))!
    options.onOutput(output)
    print(`✓ ${update.files.join(', ')} → serving build ${output.manifest.build.id} (${elapsed(started)})`)
    scheduleSettle()
  }

  const scheduleSettle = () => {
    clearTimeout(settle)
    armed.settle = true
    settle = setTimeout(() => {
      armed.settle = false
      settling = queue = queue.then(finish).catch(report)
    }, settleMs)
  }

  /** The full pass: every whole-content emitter, the manifest, then dist/. */
  const finish = async () => {
    if (!compiler.current().ok || compiler.isComplete() || pending.size) return
    // Files the watcher never reported go in first; their own settle brings the full pass back.
    // An edit arriving meanwhile goes first (here and below); its own settle brings the full pass back.
    const missed = await compiler.stale(editWaiting)
    if (!missed || editWaiting()) return
    if (missed.length) return missed.forEach(enqueue)
    const started = performance.now()
    const onWorker = thread !== undefined && !thread.failed()
    const output = onWorker ? await passOffThread(thread!) : await passHere()
    if (!output) return
    options.onOutput(output)
    warn(output)
    print(
      `✓ full build ${output.manifest.build.id}${onWorker && !ranHere ? ' on a worker thread' : ''}: search index, documents and manifest (${elapsed(started)})${options.distDir ? '; writing dist/' : ''}`,
    )
    writeDist(output)
  }

  /** Whether the last off-thread pass fell back to this thread. */
  let ranHere = false
  const passHere = () => compiler.emit('full', editWaiting)

  /** The worker's pass, adopted; the pass made here instead when the worker failed or made another content's. */
  const passOffThread = async (worker: FullPassThread): Promise<BuildOutput | undefined> => {
    ranHere = false
    const task = worker.pass([...untold.values()])
    untold = new Map()
    const pass = await untilEvent(task.result)
    if (armed.debounce || pending.size) return void task.cancel()
    const output = pass && compiler.adoptFull(pass)
    if (output) return output
    const why = worker.failed() ?? (pass ? 'its content differs from this one' : 'it made no pass')
    ranHere = true
    print(`! the full pass ran on this thread: the worker's ${why}`)
    return passHere()
  }

  /** Writes go one after another, each with the files of its moment, off the edit queue. */
  const writeDist = (output: BuildOutput) => {
    const dir = options.distDir
    if (!dir) return
    writing = writing
      .then(() => writeDistAtomically(dir, output.files))
      .catch((error: unknown) => print(`✗ writing ${dir}: ${String(error)}`))
  }

  const enqueue = (path: ContentPath) => {
    for (const wake of eventWaiters) wake()
    pending.set(pathKey(path), path)
    clearTimeout(debounce)
    armed.debounce = true
    debounce = setTimeout(() => {
      armed.debounce = false
      queue = queue.then(apply).catch(report)
    }, debounceMs)
  }

  /** Rechecks armed per file, each RECHECK_MS after that file's latest event. */
  const rechecks = new Map<string, NodeJS.Timeout>()
  const onEvent = (file: string) => {
    const path = classify(compiler.root, file)
    if (!path) return
    const key = pathKey(path)
    enqueue(path)
    clearTimeout(rechecks.get(key))
    rechecks.set(
      key,
      setTimeout(() => rechecks.delete(key) && enqueue(path), RECHECK_MS),
    )
  }

  /** Beside the queue, not in it: 10,000 stats take long enough to delay an edit behind them. */
  let scanning: Promise<void> | undefined
  const rescan = () => {
    scanning ??= compiler
      .stale(editWaiting)
      .then((missed) => missed?.forEach(enqueue))
      .catch(report)
      .finally(() => (scanning = undefined))
  }

  const first = compiler.current()
  if (first.ok) {
    const started = performance.now()
    const output = (await compiler.emit('full'))!
    options.onOutput(output)
    warn(output)
    print(`✓ built ${output.files.size} files in memory (${elapsed(started)})`)
    writeDist(output)
    if (offThread) {
      // The worker's compiler finds every body rendered in the cache this one wrote.
      await compiler.saveCache()
      thread = new FullPassThread(compiler.root)
    }
  } else {
    reportErrors(print, first.errors.errors, options.servingId())
  }

  const watcher = await watchFiles(join(compiler.root, 'content'), onEvent, offThread)
  // Edits made while the first build ran, before the watcher was ready.
  rescan()
  const rescanTimer = setInterval(() => pending.size || armed.debounce || armed.settle || rescan(), RESCAN_MS).unref()

  return {
    settled: async () => {
      // Wait out the timers: pending events, then the full pass they schedule.
      for (;;) {
        const seen = [queue, settling, writing, scanning]
        await Promise.all(seen)
        // Work queued while we waited (an apply whose flags are already cleared) is waited for too.
        if (seen[0] !== queue || seen[1] !== settling || seen[2] !== writing || seen[3] !== scanning) continue
        if (!armed.debounce && !armed.settle && !pending.size && !rechecks.size) return
        await new Promise((r) => setTimeout(r, 5))
      }
    },
    close: async () => {
      clearTimeout(debounce)
      clearTimeout(settle)
      clearInterval(rescanTimer)
      for (const timer of rechecks.values()) clearTimeout(timer)
      await watcher.close()
      await queue.catch(() => undefined)
      await thread?.close()
      await writing
      await compiler.saveCache()
    },
  }
}

function reportErrors(
  print: (line: string) => void,
  errors: readonly ContentError[],
  servingId: string | undefined,
): void {
  for (const error of errors) print(error.message)
  const count = `${errors.length} content error${errors.length === 1 ? '' : 's'}`
  print(
    servingId ? `✗ ${count}; still serving build ${servingId}` : `✗ ${count}; nothing to serve until they are fixed`,
  )
}

function elapsed(started: number): string {
  return `${Math.round(performance.now() - started)} ms`
}
