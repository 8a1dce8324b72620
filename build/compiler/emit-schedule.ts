/**
 * The compiler's emit side: which emitters must run again, and running them.
 * The file graph (compiler.ts) says what changed; this keeps the emitters
 * whose input did pending until the next emit:
 *
 * - per-collection emitters on every edit, for the changed collections only,
 *   and each reports only the files the edit changed (build/emit/types.ts);
 * - whole-content emitters once edits settle (`emit('full')`), the search
 *   index on a worker thread for large content;
 * - settings-only emitters when site.yaml changes, history emitters (the
 *   change feed) when the content or content/'s git history changed.
 *
 * The output is the set of files in memory (outputs.ts); the manifest follows
 * it by difference.
 */
import { setImmediate } from 'node:timers/promises'
import type { CollectionName } from '../../contract/model/model.ts'
import type { BuildFile, Manifest } from '../../contract/manifest.ts'
import { MANIFEST_FILE } from '../../contract/paths.ts'
import { Interrupted } from '../core/interrupt.ts'
import { createManifest } from '../emit/manifest.ts'
import type { BuiltContent, EmittedFiles, Emitter, OffThreadTask } from '../emit/types.ts'
import {
  askShallow,
  historyKey,
  readCommittedHistory,
  readContentLog,
  type ContentLog,
} from '../history/git-history.ts'
import { gitState } from '../history/git-state.ts'
import type { CommittedHistory, FileState } from '../history/types.ts'
import { type FullPass, isUnchanged } from './full-pass.ts'
import { hashInputs } from './inputs.ts'
import type { ApiOrigin } from '../../contract/api-origin.ts'
import { OutputStore } from './outputs.ts'

export interface BuildOutput {
  /** Every file of the build, the manifest included; a copy later edits leave alone. */
  files: ReadonlyMap<string, BuildFile>
  manifest: Manifest
  /** False after `emit('edit')` while whole-content outputs wait for `emit('full')`. */
  complete: boolean
  /** The files this emit changed, added or removed (every file on the first emit). */
  changed: readonly string[]
  /** What the build could do only in part (content/ without git history), one line each. */
  warnings: string[]
}

/** What the schedule needs of the file graph. */
export interface EmitInputs {
  readonly root: string
  /** Run the search index on a worker thread for large content. */
  readonly offThread: boolean
  /** The origin the records' URLs name, over site.yaml's: part of the input hash. */
  readonly apiOrigin: ApiOrigin
  /** The sources in the order a build reads them, then the images they use (each with its hash): the input hash's order. */
  inputsInOrder(): readonly { path: string; hash: string }[]
  /** Every compiled file as content/'s history sees it. */
  workingFiles(): Map<string, FileState>
}

export class EmitSchedule {
  /**
   * The emitters, loaded with the first emit: `npm run check` never emits, and
   * never loads them (the OpenAPI builder, feeds, calendars, the search index).
   * Until then every one of them is pending.
   */
  private emitters: Emitter[] = []
  private readonly outputs = new OutputStore(MANIFEST_FILE)
  /** Collections changed since per-collection emitters last ran (every one, `all`), and emitters whose input changed since they last ran. */
  private readonly pendingCollections = new Set<CollectionName>()
  private allCollections = true
  /** The collections the per-collection emitters last ran for: one the model no longer has loses its files. */
  private emittedCollections = new Set<CollectionName>()
  private readonly pendingEmitters = new Set<Emitter>()
  private inputHash = ''
  /** content/'s git history as last read, and the key it was read for. */
  private history: { key: string; committed: CommittedHistory } | undefined
  /** The history key git last gave, and the repository's state (gitState) just before it was asked. */
  private keyAsked: { repository: string; key: string } | undefined
  /** git asked about content/'s history ahead of the first full emit (readHistoryEarly). */
  private historyAsked: { key: Promise<string>; log: Promise<ContentLog> } | undefined
  /** Off-thread work startOffThread began, and the content it is for. */
  private started: { content: BuiltContent; tasks: Map<Emitter, OffThreadTask> } | undefined

  constructor(private readonly inputs: EmitInputs) {}

  /** The content changed in `collections` (their items, or items they point to). */
  contentChanged(collections: Iterable<CollectionName>): void {
    for (const collection of collections) this.pendingCollections.add(collection)
    for (const emitter of this.emitters)
      if (emitter.input === 'content' || emitter.input === 'history' || emitter.input === 'files')
        this.pendingEmitters.add(emitter)
  }

  /** site.yaml changed: everything is made again. */
  siteChanged(): void {
    this.allCollections = true
    for (const emitter of this.emitters) this.pendingEmitters.add(emitter)
  }

  /** Whether every output reflects the content last emitted. */
  isComplete(): boolean {
    return (
      this.emitters.length > 0 &&
      !this.allCollections &&
      this.pendingCollections.size === 0 &&
      this.pendingEmitters.size === 0
    )
  }

  private async load(): Promise<void> {
    if (this.emitters.length) return
    const { createEmitters } = await import('../emit/index.ts')
    this.emitters = createEmitters()
    for (const emitter of this.emitters) this.pendingEmitters.add(emitter)
  }

  /**
   * Emit what the changes since the last emit call for (see Compiler.emit);
   * undefined when `signal` aborted a full emit first. `made` is handed each
   * collection's files as they are made (a build writes them meanwhile).
   */
  async emit(
    content: BuiltContent,
    mode: 'edit' | 'full',
    signal?: AbortSignal,
    made?: (files: ReadonlyMap<string, BuildFile>) => void,
  ): Promise<BuildOutput | undefined> {
    await this.load()
    this.outputs.track()
    const { names } = content.site.model
    for (const gone of this.emittedCollections)
      if (!names.includes(gone))
        for (const emitter of this.emitters)
          if (emitter.input === 'collection') this.outputs.replace(`${emitter.name}:${gone}`, {})
    this.emittedCollections = new Set(names)
    const pending = this.allCollections ? names : [...this.pendingCollections].filter((c) => names.includes(c))
    for (const collection of pending)
      for (const emitter of this.emitters) {
        if (emitter.input !== 'collection') continue
        const delta = emitter.emit(content, collection)
        this.outputs.update(`${emitter.name}:${collection}`, delta)
        if (!made) continue
        // The files as the outputs hold them (text made a BuildFile), the objects the final output has.
        const files = new Map<string, BuildFile>()
        for (const path of Object.keys(delta.files)) {
          const file = this.outputs.get(path)
          if (file) files.set(path, file)
        }
        made(files)
      }
    this.pendingCollections.clear()
    this.allCollections = false
    for (const emitter of this.emitters) if (emitter.input === 'collection') this.pendingEmitters.delete(emitter)
    const key = mode === 'full' ? await this.readHistory() : undefined
    if (mode === 'full' && !(await this.emitWhole(content, signal))) return undefined
    if (key !== undefined)
      this.inputHash = await hashInputs(this.inputs.root, this.inputs.inputsInOrder(), key, this.inputs.apiOrigin)
    // The manifest file (megabytes at 10,000 items) is a whole-content output too: an edit
    // updates the manifest the gateway answers from, the file follows with the full pass.
    const manifest = this.manifest(content, this.inputHash)
    if (mode === 'full') this.outputs.set(MANIFEST_FILE, asciiJson(manifest))
    const warning = this.history && (this.history.committed.detail ?? this.history.committed.warning)
    return {
      files: this.outputs.snapshot(),
      manifest,
      complete: this.isComplete(),
      changed: this.outputs.changedSinceTrack(),
      warnings: warning ? [warning] : [],
    }
  }

  /** What a full emit made, for a compiler on another thread to adopt (full-pass.ts). */
  fullPass(output: BuildOutput): FullPass {
    const owners: FullPass['owners'] = {}
    for (const emitter of this.emitters)
      if (emitter.input !== 'collection') owners[emitter.name] = this.outputs.filesOf(emitter.name)
    return {
      owners,
      manifest: output.files.get(MANIFEST_FILE)!,
      buildId: output.manifest.build.id,
      inputHash: this.inputHash,
      warnings: output.warnings,
    }
  }

  /**
   * Take the whole-content files of a full pass another compiler made over
   * the same files; the complete output, or undefined when that compiler's
   * content is not this one's (the build ids differ), which changes nothing.
   */
  adoptFull(content: BuiltContent, pass: FullPass): BuildOutput | undefined {
    if (this.allCollections || this.pendingCollections.size) return undefined
    const owners = this.withUnchangedFiles(pass)
    if (!owners) return undefined
    this.outputs.track()
    const before = Object.keys(owners).map((owner) => [owner, this.outputs.filesOf(owner)] as const)
    for (const [owner, files] of Object.entries(owners)) this.outputs.replace(owner, files)
    if (this.outputs.buildId() !== pass.buildId) {
      // Not this content's pass: put the files back as they were.
      for (const [owner, files] of before) this.outputs.replace(owner, files)
      return undefined
    }
    this.outputs.set(MANIFEST_FILE, pass.manifest)
    const manifest = this.manifest(content, pass.inputHash)
    this.inputHash = pass.inputHash
    this.pendingEmitters.clear()
    return {
      files: this.outputs.snapshot(),
      manifest,
      complete: true,
      changed: this.outputs.changedSinceTrack(),
      warnings: pass.warnings,
    }
  }

  /** The pass's files, those it left out (`Unchanged`) as this compiler holds them; undefined if it lacks one. */
  private withUnchangedFiles(pass: FullPass): Record<string, Record<string, BuildFile>> | undefined {
    const owners: Record<string, Record<string, BuildFile>> = {}
    for (const [owner, files] of Object.entries(pass.owners)) {
      owners[owner] = {}
      for (const [path, file] of Object.entries(files)) {
        if (!isUnchanged(file)) {
          owners[owner][path] = file
          continue
        }
        const held = this.outputs.get(path)
        if (held?.etag !== file.unchanged) return undefined
        owners[owner][path] = held
      }
    }
    return owners
  }

  /**
   * Start the pending whole-content emitters' work on other threads (the
   * search index of large content) for `content` now, ahead of the
   * `emit('full')` that takes it: a build makes its items and lists
   * meanwhile. A full emit of other content cancels it.
   */
  async startOffThread(content: BuiltContent): Promise<void> {
    await this.load()
    this.cancelStarted()
    const pending = this.emitters.filter((e) => this.pendingEmitters.has(e))
    this.started = { content, tasks: this.offThreadTasks(content, pending, new Map()) }
  }

  /**
   * Start on other threads the work of those of `emitters` that have some (the search index of large
   * content) and no task in `tasks` yet; `tasks` with them added.
   */
  private offThreadTasks(
    content: BuiltContent,
    emitters: readonly Emitter[],
    tasks: Map<Emitter, OffThreadTask>,
  ): Map<Emitter, OffThreadTask> {
    if (!this.inputs.offThread) return tasks
    for (const emitter of emitters) {
      if (tasks.has(emitter) || !(emitter.input === 'content' || emitter.input === 'site')) continue
      const task = emitter.offThread?.(content)
      if (!task) continue
      // Until emitWhole awaits it, a failed worker is no unhandled rejection (emitWhole then emits in-thread).
      task.result.catch(() => undefined)
      tasks.set(emitter, task)
    }
    return tasks
  }

  /** Stop what startOffThread began (the build failed before its full emit). */
  cancelStarted(): void {
    for (const task of this.started?.tasks.values() ?? []) {
      task.result.catch(() => undefined)
      task.cancel()
    }
    this.started = undefined
  }

  /** content/'s history as the last full emit read it (undefined before one). */
  committedHistory(): CommittedHistory | undefined {
    return this.history?.committed
  }

  /** The manifest of the files as they are now. */
  private manifest(content: BuiltContent, inputHash: string): Manifest {
    const index = { id: this.outputs.buildId(), files: this.outputs.snapshot(), manifestPath: MANIFEST_FILE }
    return createManifest(content, index, inputHash)
  }

  /**
   * Ask git now for what the next full emit reads of content/'s history: git
   * runs on the other core while this thread compiles, and starting a process
   * costs less before the content fills the heap. Should a commit land
   * between the two answers, the next build's key differs and it reads the
   * history again; a later full emit asks again anyway.
   */
  readHistoryEarly(): void {
    const shallow = askShallow(this.inputs.root)
    this.historyAsked = { key: historyKey(this.inputs.root, shallow), log: readContentLog(this.inputs.root, shallow) }
  }

  /** Read content/'s history again when its key changed (a commit); the key. */
  private async readHistory(): Promise<string> {
    const { root } = this.inputs
    const asked = this.historyAsked
    this.historyAsked = undefined
    // The repository as its files say, read before git is asked: the same as when the key was last asked, the
    // same key. Not kept for an answer asked early (a build's, once per process): it may predate the state.
    const repository = asked ? undefined : gitState(root)
    if (repository !== undefined && this.keyAsked?.repository === repository) return this.keyAsked.key
    // Whether the clone is shallow is part of the key and where the history starts: asked once for both.
    const shallow = asked ? undefined : askShallow(root)
    const key = await (asked?.key ?? historyKey(root, shallow))
    if (this.history?.key !== key) {
      const known = new Map([...this.inputs.workingFiles()].map(([path, state]) => [state.blob, { ...state, path }]))
      const log = asked?.log ?? readContentLog(root, shallow)
      this.history = { key, committed: await readCommittedHistory(root, known, log) }
      for (const emitter of this.emitters) if (emitter.input === 'history') this.pendingEmitters.add(emitter)
    }
    // Only once the history of that key is read: a failed read is tried again next time.
    this.keyAsked = repository === undefined ? undefined : { repository, key }
    return key
  }

  /** Run the pending whole-content, settings and index emitters; false when aborted. */
  private async emitWhole(content: BuiltContent, signal: AbortSignal | undefined): Promise<boolean> {
    const pending = this.emitters.filter((e) => this.pendingEmitters.has(e))
    // Off-thread work starts first (unless startOffThread began it for this content), so the other emitters run meanwhile.
    const begun = this.started?.content === content ? this.started.tasks : undefined
    if (!begun) this.cancelStarted()
    this.started = undefined
    const tasks = this.offThreadTasks(content, pending, begun ?? new Map())
    try {
      for (const emitter of pending) {
        if (emitter.input === 'collection' || emitter.input === 'files' || tasks.has(emitter)) continue
        await yieldToEvents()
        if (signal?.aborted) return false
        this.outputs.replace(
          emitter.name,
          emitter.input === 'history'
            ? emitter.emit(content, { committed: this.history!.committed, working: this.inputs.workingFiles() })
            : emitter.emit(content),
        )
        this.pendingEmitters.delete(emitter)
      }
      for (const [emitter, task] of tasks) {
        const files = await settleUnless(task, signal)
        if (files === undefined) return false
        this.outputs.replace(
          emitter.name,
          files ?? (emitter as Extract<Emitter, { input: 'content' | 'site' }>).emit(content),
        )
        this.pendingEmitters.delete(emitter)
      }
    } catch (error) {
      // A checkpoint inside an emitter (core/interrupt.ts): the same as an abort between two.
      if (error instanceof Interrupted) return false
      throw error
    } finally {
      // A task nobody awaits any more (an edit interrupted the pass) rejects when cancelled: that is
      // expected, not an unhandled rejection (which ended the dev server at 10,000 items).
      for (const task of tasks.values()) {
        task.result.catch(() => undefined)
        task.cancel()
      }
    }
    for (const emitter of pending) {
      if (emitter.input !== 'files') continue
      await yieldToEvents()
      if (signal?.aborted) return false
      const paths = this.outputs.pathsExcept((owner) => owner === emitter.name)
      this.outputs.replace(
        emitter.name,
        emitter.emit(content, paths, (path) => this.outputs.get(path)),
      )
      this.pendingEmitters.delete(emitter)
    }
    return true
  }
}

/** Let requests and file events in between emitters (the watch mode serves while it emits). */
function yieldToEvents(): Promise<void> {
  return setImmediate()
}

/**
 * The task's files; null when the worker failed (emit on this thread
 * instead); undefined when `signal` aborted first: an edit arriving meanwhile
 * goes first instead of waiting seconds for a stale result.
 */
function settleUnless(task: OffThreadTask, signal: AbortSignal | undefined): Promise<EmittedFiles | null | undefined> {
  if (signal?.aborted) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    const abort = () => resolve(undefined)
    signal?.addEventListener('abort', abort, { once: true })
    task.result.then(
      (files) => resolve(files),
      () => resolve(null),
    )
    task.result.finally(() => signal?.removeEventListener('abort', abort)).catch(() => undefined)
  })
}

/**
 * JSON with every non-ASCII character escaped: the same value, but a reader
 * gets a one-byte string (the gateway parses the manifest at every load, and
 * a two-byte copy of it doubles what the manifest holds in memory).
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
