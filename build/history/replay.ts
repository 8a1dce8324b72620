/**
 * Replaying content file changes, commit by commit, into changes of
 * published records, one change feed per locale of the site. What an item
 * shows in each locale is item-entries.ts's: in the default locale a record
 * is a collection and slug, its version the public file that holds it (the
 * first by path, should two ever claim one slug) and its hreflang data;
 * another locale shows the item's translation, or where it falls back the
 * default record. Between two states a record is created, updated (another
 * file, other bytes, other translations) or deleted (no longer shown).
 *
 * A file is public while it is not a draft and its release window
 * (build/pipeline/schedule.ts) holds the time: so besides commits, a release
 * (`published_at` reached) creates an item and an expiry (`expires_at`
 * reached) deletes it, each at its own time, up to the build's clock and
 * never past it. A commit's files are judged at the commit's time, or at the
 * clock when that is earlier (a build as of an earlier BUILD_TIME), so the
 * log never shows an item the content does not publish.
 */
import type { ChangeType } from '../../contract/changes.ts'
import { checkpoint } from '../core/interrupt.ts'
import { itemEntries, itemOf, type Candidate, type ViewEntry } from './item-entries.ts'
import type { ReplaySite } from './replay-site.ts'
import { TimerHeap } from './timer-heap.ts'
import type { CommitStep, FileState, HistoryChange } from './types.ts'

export interface ReplayStep {
  time: number
  changes: { path: string; blob: string | undefined }[]
  /** Files renamed in the step: by new path, the old one. */
  renamed?: ReadonlyMap<string, string>
}

export interface Resolved {
  steps: CommitStep[]
  files: Map<string, FileState>
  lastTime: number | undefined
}

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
    out.push(step.renamed ? { time, files: next, renamed: step.renamed } : { time, files: next })
    lastTime = time
  }
  return { steps: out, files, lastTime }
}

/** Each locale's changes (every locale of the site, in its order; empty lists where nothing changed). */
export type LocaleChanges = Map<string, HistoryChange[]>

/** Append `more` to `into`, locale by locale; `into`. */
export function appendChanges(into: LocaleChanges, more: LocaleChanges): LocaleChanges {
  for (const [locale, changes] of more) {
    const list = into.get(locale)
    if (list) list.push(...changes)
    else into.set(locale, [...changes])
  }
  return into
}

/**
 * The records' history as of the clock `now` (seconds): apply each commit (and
 * then the working tree) in order; releases and expiries in between are
 * applied at their own times.
 */
export class Replay {
  readonly files = new Map<string, FileState>()
  /** Each item's files (paths), whatever their locale and state. */
  private readonly items = new Map<string, Set<string>>()
  /** What each item shows in the feeds, as last judged. */
  private readonly shown = new Map<string, ViewEntry[]>()
  private readonly indexes: Map<string, PublishedIndex>
  /** Releases and expiries still to come, soonest first. */
  private readonly timers = new TimerHeap()

  constructor(
    private readonly now: number,
    private readonly site: ReplaySite,
  ) {
    this.indexes = new Map(site.locales.map((l) => [l, new PublishedIndex()]))
  }

  /** The changes of new file states at `time` (undefined: removed), after the releases and expiries due by then. */
  apply(next: ReadonlyMap<string, FileState | undefined>, time: number): LocaleChanges {
    const changes = this.until(Math.min(time, this.now))
    return appendChanges(changes, this.step(next, new Set(), time, Math.min(time, this.now)))
  }

  /** The changes of new file states judged at the clock itself, placed at time 0 (history without commits). */
  applyAtClock(next: ReadonlyMap<string, FileState | undefined>): LocaleChanges {
    return this.step(next, new Set(), 0, this.now)
  }

  /** The releases and expiries due at or before `time` (never past the clock), each at its own time. */
  until(time: number): LocaleChanges {
    const end = Math.min(time, this.now)
    const changes = this.empty()
    for (let at = this.timers.peek(); at !== undefined && at <= end; at = this.timers.peek())
      appendChanges(changes, this.step(new Map(), this.timers.popAll(at), at, at))
    return changes
  }

  private empty(): LocaleChanges {
    return new Map(this.site.locales.map((l) => [l, []]))
  }

  /**
   * Apply states placed at `time`, and judge their items and `due` ones (their timers fired) again
   * at `at`; the changes of each feed's records, at `time`.
   */
  private step(
    next: ReadonlyMap<string, FileState | undefined>,
    due: ReadonlySet<string>,
    time: number,
    at: number,
  ): LocaleChanges {
    const affected = new Set(due)
    for (const [path, state] of next) {
      const old = this.files.get(path)
      if (old) {
        affected.add(itemOf(old))
        this.items.get(itemOf(old))?.delete(path)
      }
      if (state) {
        affected.add(itemOf(state))
        this.files.set(path, state)
        const paths = this.items.get(itemOf(state))
        if (paths) paths.add(path)
        else this.items.set(itemOf(state), new Set([path]))
      } else this.files.delete(path)
    }
    const fresh = new Map<string, ViewEntry[]>()
    let judged = 0
    for (const item of affected) {
      if ((++judged & 255) === 0) checkpoint()
      const paths = [...(this.items.get(item) ?? [])]
      if (paths.length === 0) this.items.delete(item)
      const files = paths.map((path) => ({ ...this.files.get(path)!, path }))
      fresh.set(item, itemEntries(files, this.site, at))
      for (const file of files) {
        if (!file.published || !file.window) continue
        for (const when of [file.window.from, file.window.until])
          if (when !== undefined && when > at) this.timers.push(when, item)
      }
    }
    const out = this.empty()
    for (const [view, index] of this.indexes) {
      const keys = new Set<string>()
      for (const item of affected)
        for (const e of [...(this.shown.get(item) ?? []), ...fresh.get(item)!]) if (e.view === view) keys.add(e.entry)
      if (keys.size === 0) continue
      const before = new Map([...keys].map((key) => [key, index.version(key)]))
      for (const item of affected) {
        for (const e of this.shown.get(item) ?? []) if (e.view === view) index.remove(e.entry, e.candidate.path)
        for (const e of fresh.get(item)!) if (e.view === view) index.add(e.entry, e.candidate)
      }
      const changes: { key: string; change: ChangeType; record: Candidate }[] = []
      for (const key of keys) {
        const was = before.get(key)
        const is = index.version(key)
        const change = changeOf(was, is)
        if (change) changes.push({ key, change, record: (is ?? was)! })
      }
      // The default feed in key order, as it always was; another locale's tombstones first, so the
      // default record standing in for a removed translation follows it.
      const rank = (c: ChangeType) => (view !== this.site.language && c === 'deleted' ? 0 : 1)
      changes.sort((a, b) => rank(a.change) - rank(b.change) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      out.set(
        view,
        changes.map(({ change, record }) => ({
          time,
          change,
          collection: record.collection,
          slug: record.slug,
          locale: record.locale,
        })),
      )
    }
    for (const [item, entries] of fresh) {
      if (entries.length) this.shown.set(item, entries)
      else this.shown.delete(item)
    }
    return out
  }
}

function changeOf(was: Candidate | undefined, is: Candidate | undefined): ChangeType | undefined {
  if (!was) return is ? 'created' : undefined
  if (!is) return 'deleted'
  return was.path !== is.path || was.blob !== is.blob || was.hreflang !== is.hreflang ? 'updated' : undefined
}

/** The records a feed shows by entry, to find an entry's version: the first by path, should two claim one. */
class PublishedIndex {
  private readonly byKey = new Map<string, Map<string, Candidate>>()

  add(key: string, candidate: Candidate): void {
    let paths = this.byKey.get(key)
    if (!paths) this.byKey.set(key, (paths = new Map()))
    paths.set(candidate.path, candidate)
  }

  remove(key: string, path: string): void {
    const paths = this.byKey.get(key)
    paths?.delete(path)
    if (paths?.size === 0) this.byKey.delete(key)
  }

  version(key: string): Candidate | undefined {
    const paths = this.byKey.get(key)
    if (!paths) return undefined
    let first: string | undefined
    for (const path of paths.keys()) if (first === undefined || path < first) first = path
    return paths.get(first!)
  }
}
