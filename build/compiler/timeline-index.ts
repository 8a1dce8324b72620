/**
 * The build's timeline kept file by file: the release and expiry instants of
 * every file that may be published (drafts left out), sorted with how many
 * windows begin or end at each. Whether a release came due since the last
 * assembly, and the last and next ones around the clock, are then binary
 * searches; they were a pass over every file's window on each edit (30,000
 * at a time). A file's window is worked out again only when it, or the item
 * its translation is bound to, changed (`refresh`).
 *
 * @example
 * timeline.refresh([saved], releases)
 * timeline.at(now) // { last: 1767225600, next: 1767312000 }
 */
import type { CompiledFile } from '../pipeline/compile.ts'
import { isEmptyWindow, type PublicationWindow, type Timeline } from '../pipeline/schedule.ts'
import { publicationOf, type Schedules } from './translation-schedule.ts'

export class TimelineIndex {
  private readonly windowOf = new Map<CompiledFile, PublicationWindow>()
  /** Distinct instants, ascending, and how many window ends fall on each. */
  private readonly times: number[] = []
  private readonly counts: number[] = []

  clear(): void {
    this.windowOf.clear()
    this.times.length = 0
    this.counts.length = 0
  }

  /** Work out `files`' windows again as `releases` publish them; those `current` says are gone are dropped. */
  refresh(
    files: Iterable<CompiledFile>,
    schedules: Schedules,
    current: (file: CompiledFile) => boolean = () => true,
  ): void {
    for (const file of files) {
      this.drop(file)
      if (!current(file)) continue
      const { draft, window } = publicationOf(file, schedules)
      if (draft || !window || isEmptyWindow(window)) continue
      this.windowOf.set(file, window)
      this.countWindow(window, 1)
    }
  }

  /** Whether a release or expiry falls after `before` and at or before `now`. */
  passedBetween(before: number, now: number): boolean {
    if (now <= before) return false
    const i = this.firstAfter(before)
    return i < this.times.length && this.times[i]! <= now
  }

  /** The last release or expiry at or before `now`, and the next one after it. */
  at(now: number): Timeline {
    const i = this.firstAfter(now)
    return { last: i > 0 ? this.times[i - 1] : undefined, next: this.times[i] }
  }

  private drop(file: CompiledFile): void {
    const window = this.windowOf.get(file)
    if (!window) return
    this.windowOf.delete(file)
    this.countWindow(window, -1)
  }

  /** Count a window's release and expiry in (1) or out (-1). */
  private countWindow(window: PublicationWindow, by: 1 | -1): void {
    this.count(window.from, by)
    if (window.until !== undefined) this.count(window.until, by)
  }

  private count(at: number, by: 1 | -1): void {
    const i = this.firstAtOrAfter(at)
    if (this.times[i] === at) {
      this.counts[i]! += by
      if (this.counts[i] === 0) {
        this.times.splice(i, 1)
        this.counts.splice(i, 1)
      }
    } else if (by === 1) {
      this.times.splice(i, 0, at)
      this.counts.splice(i, 0, 1)
    }
  }

  /** The index of the first instant after `at` (the length when there is none). */
  private firstAfter(at: number): number {
    return this.search((time) => time <= at)
  }

  private firstAtOrAfter(at: number): number {
    return this.search((time) => time < at)
  }

  /** The index of the first instant `before` is false for (instants ascending). */
  private search(before: (time: number) => boolean): number {
    let low = 0
    let high = this.times.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if (before(this.times[mid]!)) low = mid + 1
      else high = mid
    }
    return low
  }
}
