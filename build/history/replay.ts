/**
 * Replaying content file changes, commit by commit, into changes of
 * published items. An item is a collection and slug; its version is the
 * public file that holds it (the first by path, should two ever claim one
 * slug). Between two states an item is created, updated (another file or
 * other bytes) or deleted (no public file holds it any more).
 *
 * A file is public while it is not a draft and its release window
 * (build/pipeline/schedule.ts) holds the time: so besides commits, a release
 * (`published_at` reached) creates an item and an expiry (`expires_at`
 * reached) deletes it, each at its own time, up to the build's clock and
 * never past it. A commit's files are judged at the commit's time, or at the
 * clock when that is earlier (a build as of an earlier BUILD_TIME), so the
 * log never shows an item the content does not publish.
 */
import { isLive } from '../pipeline/schedule.ts'
import type { CommitStep, FileState, HistoryChange } from './types.ts'

export interface ReplayStep {
  time: number
  changes: { path: string; blob: string | undefined }[]
}

export interface Resolved {
  steps: CommitStep[]
  files: Map<string, FileState>
  lastTime: number | undefined
}

const keyOf = (s: FileState) => `${s.collection}/${s.slug}`

/**
 * Each commit's files as states. `resolve` reads a file's state from its blob;
 * undefined when it cannot (frontmatter that does not parse): the file then
 * keeps the state it had. Times never go back (a commit dated before its parent
 * counts at its parent's time).
 */
export function resolveSteps(
  steps: readonly ReplayStep[],
  resolve: (path: string, blob: string) => FileState | undefined,
): Resolved {
  const files = new Map<string, FileState>()
  const out: CommitStep[] = []
  let lastTime: number | undefined
  for (const step of steps) {
    const time = Math.max(step.time, lastTime ?? step.time)
    const next = new Map<string, FileState | undefined>()
    for (const { path, blob } of step.changes) {
      const state = blob === undefined ? undefined : (resolve(path, blob) ?? files.get(path))
      next.set(path, state)
      if (state) files.set(path, state)
      else files.delete(path)
    }
    out.push({ time, files: next })
    lastTime = time
  }
  return { steps: out, files, lastTime }
}

/** Whether a file is public at `at` (seconds). */
function isPublic(state: FileState | undefined, at: number): state is FileState {
  return state?.published === true && isLive(state.window, at)
}

/**
 * The items' history as of the clock `now` (seconds): apply each commit (and
 * then the working tree) in order; releases and expiries in between are
 * applied at their own times.
 */
export class Replay {
  readonly files = new Map<string, FileState>()
  private readonly index = new PublishedIndex()
  /** Releases and expiries still to come, soonest first. */
  private readonly timers = new TimerHeap()

  constructor(private readonly now: number) {}

  /** The changes of new file states at `time` (undefined: removed), after the releases and expiries due by then. */
  apply(next: ReadonlyMap<string, FileState | undefined>, time: number): HistoryChange[] {
    const changes = this.until(Math.min(time, this.now))
    changes.push(...this.step(next, time, Math.min(time, this.now)))
    return changes
  }

  /** The changes of new file states judged at the clock itself, placed at time 0 (history without commits). */
  applyAtClock(next: ReadonlyMap<string, FileState | undefined>): HistoryChange[] {
    return this.step(next, 0, this.now)
  }

  /** The releases and expiries due at or before `time` (never past the clock), each at its own time. */
  until(time: number): HistoryChange[] {
    const end = Math.min(time, this.now)
    const changes: HistoryChange[] = []
    for (let at = this.timers.peek(); at !== undefined && at <= end; at = this.timers.peek()) {
      const due = new Map<string, FileState | undefined>()
      for (const { path, state } of this.timers.popAll(at)) if (this.files.get(path) === state) due.set(path, state)
      if (due.size) changes.push(...this.step(due, at, at))
    }
    return changes
  }

  /** Apply states placed at `time`, each judged public or not at `at`. */
  private step(next: ReadonlyMap<string, FileState | undefined>, time: number, at: number): HistoryChange[] {
    const changes = applyStep(this.files, this.index, next, time, at)
    for (const [path, state] of next) {
      if (!state?.published || !state.window) continue
      for (const when of [state.window.from, state.window.until])
        if (when !== undefined && when > at) this.timers.push(when, path, state)
    }
    return changes
  }
}

/**
 * Apply new states (undefined: removed) to `files`, judging each public at
 * `at` (default `time`); the item changes they make, by item, at `time`.
 */
export function applyStep(
  files: Map<string, FileState>,
  index: PublishedIndex,
  next: ReadonlyMap<string, FileState | undefined>,
  time: number,
  at = time,
): HistoryChange[] {
  const affected = new Set<string>()
  for (const [path, state] of next) {
    const old = files.get(path)
    if (old) affected.add(keyOf(old))
    if (state) affected.add(keyOf(state))
  }
  const before = new Map([...affected].map((key) => [key, index.version(key)]))
  for (const [path, state] of next) {
    const old = files.get(path)
    if (old) index.remove(keyOf(old), path)
    if (state) files.set(path, state)
    else files.delete(path)
    if (isPublic(state, at)) index.add(keyOf(state), path, state)
  }
  const out: HistoryChange[] = []
  for (const key of [...affected].sort()) {
    const was = before.get(key)
    const is = index.version(key)
    const change =
      !was && is
        ? 'created'
        : was && !is
          ? 'deleted'
          : was && is && (was.path !== is.path || was.blob !== is.blob)
            ? 'updated'
            : undefined
    const state = is ?? was
    if (change && state) out.push({ time, change, collection: state.collection, slug: state.slug })
  }
  return out
}

/** Public files by item, to find an item's version. */
export class PublishedIndex {
  private readonly byKey = new Map<string, Map<string, FileState>>()

  add(key: string, path: string, state: FileState): void {
    let paths = this.byKey.get(key)
    if (!paths) this.byKey.set(key, (paths = new Map()))
    paths.set(path, state)
  }

  remove(key: string, path: string): void {
    const paths = this.byKey.get(key)
    paths?.delete(path)
    if (paths?.size === 0) this.byKey.delete(key)
  }

  version(key: string): { path: string; blob: string; collection: FileState['collection']; slug: string } | undefined {
    const paths = this.byKey.get(key)
    if (!paths) return undefined
    const path = [...paths.keys()].sort()[0]!
    const state = paths.get(path)!
    return { path, blob: state.blob, collection: state.collection, slug: state.slug }
  }
}

interface Timer {
  time: number
  path: string
  state: FileState
}

/** A binary min-heap of timers by time. A timer whose file has changed since is skipped when it fires. */
class TimerHeap {
  private readonly items: Timer[] = []

  push(time: number, path: string, state: FileState): void {
    const items = this.items
    items.push({ time, path, state })
    let i = items.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (items[parent]!.time <= items[i]!.time) break
      ;[items[parent], items[i]] = [items[i]!, items[parent]!]
      i = parent
    }
  }

  peek(): number | undefined {
    return this.items[0]?.time
  }

  /** Every timer at `time` (the soonest), in path order. */
  popAll(time: number): Timer[] {
    const out: Timer[] = []
    while (this.items.length && this.items[0]!.time === time) out.push(this.pop())
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }

  private pop(): Timer {
    const items = this.items
    const top = items[0]!
    const last = items.pop()!
    if (items.length) {
      items[0] = last
      let i = 0
      for (;;) {
        const [l, r] = [2 * i + 1, 2 * i + 2]
        let least = i
        if (l < items.length && items[l]!.time < items[least]!.time) least = l
        if (r < items.length && items[r]!.time < items[least]!.time) least = r
        if (least === i) break
        ;[items[least], items[i]] = [items[i]!, items[least]!]
        i = least
      }
    }
    return top
  }
}
