/**
 * The watch mode as a state machine, driven by events (a file changed, a
 * timer fired, a step finished), never by polling:
 *
 *   idle ──file──▶ debouncing ──quiet debounceMs──▶ applying ──done──▶ settling ──quiet settleMs──▶ writing
 *    ▲                 ▲  └─file: wait again            │ (edit emitted)            │                 │
 *    │                 └──────────── file ──────────────┴───────────────────────────┴── file: abort ──┘
 *    └──── nothing left to emit (or the content has errors) ◀── done ──────────────────────────────────┘
 *
 * - idle: every output is current (or the content has errors and nothing can be emitted);
 * - debouncing: file events are pending; each restarts the debounce timer;
 * - applying: the pending files are recompiled and the edit emitted (`emit('edit')`);
 *   events arriving meanwhile wait for the next round;
 * - settling: the edit is served; the full pass waits for settleMs without events;
 * - writing: the full pass (whole-content outputs and the manifest, on a worker
 *   thread for large content), then dist/ written in the background. An event
 *   aborts the pass: the edit goes first, and the pass comes back once edits settle.
 *
 * `quiet()` resolves when the machine is idle and nothing else is under way
 * (a dist/ write, a stat scan, a recheck some file still has armed).
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { ContentError } from '../core/errors.ts'
import { pathKey, type ContentPath } from '../core/sources.ts'
import { writeDistAtomically } from '../emit/write.ts'
import type { Compiler } from './compiler.ts'
import type { BuildOutput } from './emit-schedule.ts'
import { FullPassThread } from './full-pass.ts'

/** The longest the JIT's warm-up after the first build may take (Compiler.warmUp). */
const WARM_UP_MS = 300

export type WatchPhase = 'idle' | 'debouncing' | 'applying' | 'settling' | 'writing'

export interface WatchLoopOptions {
  distDir?: string
  debounceMs: number
  settleMs: number
  offThread: boolean
  print: (line: string) => void
  onOutput: (output: BuildOutput) => void
  /** The files an update recompiled (content files), with or without errors. */
  onUpdate?: (files: readonly string[]) => void
  servingId: () => string | undefined
}

export class WatchLoop {
  private phase: WatchPhase = 'idle'
  /** Files changed since the last apply, by key. */
  private pending = new Map<string, ContentPath>()
  /** Keys of pending files to apply even when empty: a recheck's or a stat scan's, not a first event's. */
  private readonly confirmed = new Set<string>()
  /** The debounce or settle timer of the current phase. */
  private timer: NodeJS.Timeout | undefined
  /** Aborts the step in progress that gives way to an edit (the full pass, a stat scan). */
  private pass: AbortController | undefined
  private scan: AbortController | undefined
  /** The step in progress (applying or writing), for close() to wait on. */
  private step: Promise<void> = Promise.resolve()
  /** dist/ writes, one after another, each with the files of its moment. */
  private writes: Promise<void> = Promise.resolve()
  private writing = 0
  /** Keys of files whose recheck is still armed. */
  private readonly held = new Set<string>()
  private waiters: (() => void)[] = []
  private closed = false
  /** The full pass's worker, once the first build is out; and the paths it has not been told about. */
  private thread: FullPassThread | undefined
  private untold = new Map<string, ContentPath>()
  /** Warnings already printed: each is said once, not on every full pass. */
  private warned = ''

  constructor(
    private readonly compiler: Compiler,
    private readonly options: WatchLoopOptions,
  ) {}

  /** Emit the current content (if good) in full, and start the full pass's worker. */
  async start(): Promise<void> {
    const first = this.compiler.current()
    if (!first.ok) return this.reportErrors(first.errors.errors)
    const started = performance.now()
    const output = (await this.compiler.emit('full'))!
    this.options.onOutput(output)
    this.warn(output)
    this.options.print(`✓ built ${output.files.size} files in memory (${elapsed(started)})`)
    this.writeDist(output)
    if (this.options.offThread) {
      // The worker's compiler finds every body rendered in the cache this one wrote.
      await this.compiler.saveCache()
      this.thread = new FullPassThread(this.compiler.root, this.compiler.apiOrigin)
    }
    // Before the watcher starts (an edit meanwhile is found by its first scan, as during the build).
    await this.compiler.warmUp(WARM_UP_MS)
  }

  /** The current phase (for tests and messages). */
  current(): WatchPhase {
    return this.phase
  }

  /**
   * Event: a file changed (or may have). `confirmed`: the file's recheck (an
   * event's, a moment later: watch.ts) or a stat scan found it, rather than its
   * first event: it is applied even when empty (see `apply`).
   */
  fileChanged(path: ContentPath, confirmed = false): void {
    if (this.closed) return
    this.pending.set(pathKey(path), path)
    if (confirmed) this.confirmed.add(pathKey(path))
    this.scan?.abort()
    switch (this.phase) {
      case 'idle':
      case 'settling':
      case 'debouncing':
        this.enter('debouncing')
        return
      case 'writing':
        // The edit goes first; the pass comes back once edits settle.
        this.pass?.abort()
        return
      case 'applying':
        // Applied in the next round, when this one is done.
        return
    }
  }

  /** Keep the machine from counting as quiet while `key` may still change (a recheck is armed). */
  hold(key: string): void {
    this.held.add(key)
  }

  release(key: string): void {
    this.held.delete(key)
    this.wakeIfQuiet()
  }

  /** Compare every file's stat, when idle: events that never came (see watch.ts). */
  rescan(): void {
    if (this.closed || this.phase !== 'idle' || this.scan) return
    const scan = (this.scan = new AbortController())
    this.compiler
      .stale(scan.signal)
      .then((missed) => {
        for (const path of missed ?? []) this.fileChanged(path, true)
      })
      .catch((error: unknown) => this.report(error))
      .finally(() => {
        this.scan = undefined
        this.wakeIfQuiet()
      })
  }

  /** Resolves once idle with nothing under way. */
  quiet(): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve)
      this.wakeIfQuiet()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    this.pass?.abort()
    this.scan?.abort()
    await this.step.catch(() => undefined)
    await this.thread?.close()
    await this.writes
    await this.compiler.saveCache()
    this.phase = 'idle'
    this.wakeIfQuiet()
  }

  private enter(phase: WatchPhase): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.phase = phase
    switch (phase) {
      case 'debouncing':
        this.timer = setTimeout(() => this.enter('applying'), this.options.debounceMs)
        return
      case 'applying':
        this.run(() => this.apply())
        return
      case 'settling':
        this.timer = setTimeout(() => this.enter('writing'), this.options.settleMs)
        return
      case 'writing':
        this.run(() => this.fullPass())
        return
      case 'idle':
        this.wakeIfQuiet()
        return
    }
  }

  /** Run a step, then go where its outcome leads. */
  private run(work: () => Promise<void>): void {
    this.step = work()
      .catch((error: unknown) => this.report(error))
      .finally(() => {
        if (!this.closed) this.enter(this.next())
      })
  }

  /** Where to go after a step: more edits, the full pass, or rest. */
  private next(): WatchPhase {
    if (this.pending.size) return 'debouncing'
    if (this.compiler.current().ok && !this.compiler.isComplete()) return 'settling'
    return 'idle'
  }

  /**
   * Recompile the pending files and emit the edit. A file its first event
   * finds empty waits for its next event or its recheck: a save that
   * truncates the file and then writes it (Node's writeFile, many editors)
   * shows an empty file in between, which is not what the author saved (it
   * printed "title: is required" and the like, and cost an edit a second
   * round). A file left empty is applied at its recheck, errors and all.
   */
  private async apply(): Promise<void> {
    const paths = [...this.pending].flatMap(([key, path]) =>
      this.confirmed.has(key) || !isEmpty(this.compiler.root, path) ? [path] : [],
    )
    this.pending = new Map()
    this.confirmed.clear()
    if (!paths.length) return
    const started = performance.now()
    for (const path of paths) this.untold.set(pathKey(path), path)
    const update = await this.compiler.update(paths)
    // Nothing differs from what is compiled (a recheck, a touch).
    if (!update) return
    this.options.onUpdate?.(update.files)
    if (!update.state.ok) return this.reportErrors(update.state.errors.errors)
    const output = (await this.compiler.emit('edit'))!
    this.options.onOutput(output)
    this.options.print(`✓ ${update.files.join(', ')} → serving build ${output.manifest.build.id} (${elapsed(started)})`)
  }

  /** The full pass: files the watcher never reported first, then every whole-content emitter and the manifest. */
  private async fullPass(): Promise<void> {
    const pass = (this.pass = new AbortController())
    try {
      const worker = this.thread && !this.thread.failed() ? this.thread : undefined
      // The worker looks for them itself, off this thread.
      if (!worker) {
        const missed = await this.compiler.stale(pass.signal)
        if (!missed || pass.signal.aborted) return
        if (missed.length) {
          this.missed(missed)
          return
        }
      }
      const started = performance.now()
      const result = worker ? await this.passOffThread(worker, pass.signal) : await this.passHere(pass.signal)
      if (!result) return
      const { output, where } = result
      this.options.onOutput(output)
      this.warn(output)
      this.options.print(
        `✓ full build ${output.manifest.build.id}${where}: search index, documents and manifest (${elapsed(started)})${this.options.distDir ? '; writing dist/' : ''}`,
      )
      this.writeDist(output)
    } finally {
      this.pass = undefined
    }
  }

  /** Files changed that no event reported: they go in first, and their own round brings the full pass back. */
  private missed(paths: readonly ContentPath[]): void {
    // Pending, and applied even when empty (a stat found them, not a first event); not fileChanged,
    // which would abort the pass that found them.
    for (const path of paths) {
      this.pending.set(pathKey(path), path)
      this.confirmed.add(pathKey(path))
    }
  }

  private async passHere(signal: AbortSignal): Promise<{ output: BuildOutput; where: string } | undefined> {
    const output = await this.compiler.emit('full', signal)
    return output && { output, where: '' }
  }

  /** The worker's pass, adopted; the pass made here instead when the worker failed or made another content's. */
  private async passOffThread(
    worker: FullPassThread,
    signal: AbortSignal,
  ): Promise<{ output: BuildOutput; where: string } | undefined> {
    const task = worker.pass([...this.untold.values()])
    this.untold = new Map()
    const reply = await untilAborted(task.result, signal)
    if (signal.aborted) return void task.cancel()
    if (reply?.missed) return void this.missed(reply.missed)
    const pass = reply?.pass
    const output = pass && this.compiler.adoptFull(pass)
    if (output) {
      worker.holds(task.id)
      return { output, where: ' on a worker thread' }
    }
    const why =
      worker.failed() ??
      (pass ? 'its content differs from this one (or it left out a file this one lacks)' : 'it made no pass')
    this.options.print(`! the full pass ran on this thread: the worker's ${why}`)
    // This thread's own whole-content files from now on: the worker's next pass sends all of its own.
    worker.holds(undefined)
    return this.passHere(signal)
  }

  /** Writes go one after another, each with the files of its moment, beside the edits. */
  private writeDist(output: BuildOutput): void {
    const dir = this.options.distDir
    if (!dir) return
    this.writing++
    this.writes = this.writes
      .then(() => writeDistAtomically(dir, output.files))
      .catch((error: unknown) => this.options.print(`✗ writing ${dir}: ${String(error)}`))
      .finally(() => {
        this.writing--
        this.wakeIfQuiet()
      })
  }

  private wakeIfQuiet(): void {
    if (this.phase !== 'idle' || this.writing || this.held.size || this.scan) return
    const waiters = this.waiters
    this.waiters = []
    for (const wake of waiters) wake()
  }

  private warn(output: BuildOutput): void {
    const text = output.warnings.join('\n')
    if (text && text !== this.warned) for (const w of output.warnings) this.options.print(`! ${w}`)
    this.warned = text
  }

  private report(error: unknown): void {
    this.options.print(`✗ ${String(error)}`)
  }

  private reportErrors(errors: readonly ContentError[]): void {
    const { print } = this.options
    for (const error of errors) print(error.message)
    const count = `${errors.length} content error${errors.length === 1 ? '' : 's'}`
    const serving = this.options.servingId()
    print(serving ? `✗ ${count}; still serving build ${serving}` : `✗ ${count}; nothing to serve until they are fixed`)
  }
}

/** The work's result, or undefined as soon as `signal` aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    const abort = () => resolve(undefined)
    signal.addEventListener('abort', abort, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort)
        resolve(value)
      },
      () => {
        signal.removeEventListener('abort', abort)
        resolve(undefined)
      },
    )
  })
}

function elapsed(started: number): string {
  return `${Math.round(performance.now() - started)} ms`
}

/** Whether the file at `path` is there and empty (a missing file is a removal, applied as such). */
function isEmpty(root: string, path: ContentPath): boolean {
  return statSync(join(root, pathKey(path)), { throwIfNoEntry: false })?.size === 0
}
