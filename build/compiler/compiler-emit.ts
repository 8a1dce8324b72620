/**
 * The compiler's emit side: the last good content through the emit schedule
 * (emit-schedule.ts) to emitted files, the search index's work started on
 * other threads ahead of a full emit, and the adoption of a full pass that a
 * compiler on another thread made (full-pass.ts). Compiler (compiler.ts)
 * keeps the content this emits.
 */
import type { BuildFile } from '../../contract/manifest.ts'
import { ContentErrors } from '../core/errors.ts'
import type { BuiltContent } from '../emit/types.ts'
import type { CommittedHistory } from '../history/types.ts'
import type { CompileState } from './compiler-options.ts'
import type { BuildOutput, EmitSchedule } from './emit-schedule.ts'
import type { FullPass } from './full-pass.ts'

export abstract class CompilerEmit {
  protected abstract readonly schedule: EmitSchedule
  protected state: CompileState = { ok: false, errors: new ContentErrors([]) }
  /** The last content without errors: what emit() emits. */
  protected good: BuiltContent | undefined

  /** The content as last compiled. */
  current(): CompileState {
    return this.state
  }

  /** Whether every output reflects the last good content. */
  isComplete(): boolean {
    return this.schedule.isComplete()
  }

  /**
   * Emit what the changes since the last emit call for. `edit` runs the
   * per-collection emitters only (the item and its lists, at once); `full`
   * runs every emitter whose input changed, the search index on a worker
   * thread for large content. A full emit stops early, returning undefined,
   * when `signal` aborts (a newer edit is waiting); what it did not finish
   * stays pending. `made` gets each collection's files as soon as they are made.
   */
  emit(
    mode: 'edit' | 'full',
    signal?: AbortSignal,
    made?: (files: ReadonlyMap<string, BuildFile>) => void,
  ): Promise<BuildOutput | undefined> {
    return this.schedule.emit(this.emittable(), mode, signal, made)
  }

  /**
   * Start the next full emit's work on other threads (the search index) now:
   * a build calls it before `emit('edit')`, which then runs alongside.
   */
  startOffThread(): Promise<void> {
    return this.schedule.startOffThread(this.emittable())
  }

  /** The last good content, which emit() emits. */
  private emittable(): BuiltContent {
    if (!this.good) throw new Error('nothing to emit: the content has errors')
    return this.good
  }

  /** Stop the work startOffThread began, when no full emit will take it. */
  cancelOffThread(): void {
    this.schedule.cancelStarted()
  }

  /** What a full emit made, for a compiler on another thread to adopt (full-pass.ts). */
  fullPass(output: BuildOutput): FullPass {
    return this.schedule.fullPass(output)
  }

  /**
   * Take the whole-content files of a full pass another compiler made over
   * the same files (the watch mode's worker); the complete output, or
   * undefined when that compiler's content is not this one's (the build ids
   * differ: an edit came in meanwhile), which changes nothing.
   */
  adoptFull(pass: FullPass): BuildOutput | undefined {
    if (!this.good || !this.state.ok) return undefined
    return this.schedule.adoptFull(this.good, pass)
  }

  /** content/'s history as the last full emit read it (undefined before one). */
  committedHistory(): CommittedHistory | undefined {
    return this.schedule.committedHistory()
  }
}
