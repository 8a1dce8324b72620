/**
 * Replaying content file changes, commit by commit, into changes of
 * published items. An item is a collection and slug; its version is the
 * published file that holds it (the first by path, should two ever claim one
 * slug). Between two states an item is created, updated (another file or
 * other bytes) or deleted (no published file holds it any more).
 */
import type { FileState, HistoryChange } from './types.ts'

export interface ReplayStep {
  time: number
  changes: { path: string; blob: string | undefined }[]
}

export interface Replayed {
  changes: HistoryChange[]
  files: Map<string, FileState>
  lastTime: number | undefined
}

const keyOf = (s: FileState) => `${s.collection}/${s.slug}`

/**
 * `resolve` reads a file's state from its blob; undefined when it cannot
 * (frontmatter that does not parse): the file then keeps the state it had.
 */
export function replay(
  steps: readonly ReplayStep[],
  resolve: (path: string, blob: string) => FileState | undefined,
): Replayed {
  const files = new Map<string, FileState>()
  const index = new PublishedIndex()
  const changes: HistoryChange[] = []
  let lastTime: number | undefined
  for (const step of steps) {
    const time = Math.max(step.time, lastTime ?? step.time)
    const next = new Map<string, FileState | undefined>()
    for (const { path, blob } of step.changes)
      next.set(path, blob === undefined ? undefined : (resolve(path, blob) ?? files.get(path)))
    changes.push(...applyStep(files, index, next, time))
    lastTime = time
  }
  return { changes, files, lastTime }
}

/** Apply new states (undefined: removed) to `files`; the item changes they make, by item. */
export function applyStep(
  files: Map<string, FileState>,
  index: PublishedIndex,
  next: ReadonlyMap<string, FileState | undefined>,
  time: number,
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
    if (old?.published) index.remove(keyOf(old), path)
    if (state) files.set(path, state)
    else files.delete(path)
    if (state?.published) index.add(keyOf(state), path, state)
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

/** Published files by item, to find an item's version. */
export class PublishedIndex {
  private readonly byKey = new Map<string, Map<string, FileState>>()

  static of(files: ReadonlyMap<string, FileState>): PublishedIndex {
    const index = new PublishedIndex()
    for (const [path, state] of files) if (state.published) index.add(keyOf(state), path, state)
    return index
  }

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
