/**
 * When the compiled files are published: each translation's schedule bound
 * to its item's (schedule-index.ts), and the timeline of every file that may
 * be published (timeline-index.ts), both kept by difference as files are
 * replaced. The compiler asks it whether a release or an expiry came due
 * since it last assembled the content.
 */
import type { SiteConfig } from '../core/site.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { ScheduleIndex } from './schedule-index.ts'
import { TimelineIndex } from './timeline-index.ts'
import type { Schedules } from './translation-schedule.ts'

export class ScheduleTiming {
  private readonly index = new ScheduleIndex()
  /** The releases of the compiled files, until they change (each idle rescan asks for them). */
  private schedulesNow: Schedules | undefined
  /**
   * The release and expiry instants of the files that may be published, kept by difference: the files
   * whose window may have changed since (`retimed`), against the releases it was worked out with.
   */
  private readonly timeline = new TimelineIndex()
  private retimed = new Set<CompiledFile>()
  private timelineSchedules: Schedules | undefined

  constructor(
    private readonly site: () => SiteConfig | undefined,
    private readonly compiled: ReadonlyMap<string, CompiledFile>,
  ) {}

  /** Forget every file (all are compiled again), for a site of default locale `language`. */
  reset(language: string): void {
    this.schedulesNow = undefined
    this.timelineSchedules = undefined
    this.index.reset(language)
  }

  /** The file `before` replaced by `file` (either absent for an added or removed one). */
  replace(before: CompiledFile | undefined, file: CompiledFile | undefined): void {
    // Their windows, and those of the translations bound to their items, are worked out again.
    for (const changed of [before, file]) {
      if (!changed) continue
      this.retimed.add(changed)
      for (const translation of this.index.boundTo(changed)) this.retimed.add(translation)
    }
    if (before) this.index.delete(before)
    if (file) this.index.add(file)
    this.schedulesNow = undefined
  }

  /** The translations bound to `file`'s item. */
  boundTo(file: CompiledFile): Iterable<CompiledFile> {
    return this.index.boundTo(file)
  }

  hasTranslations(): boolean {
    return this.index.hasTranslations()
  }

  /** Each translation's publication, bound to its item's (translation-schedule.ts). */
  schedules(): Schedules {
    const site = this.site()
    this.schedulesNow ??= site ? this.index.of(site, this.compiled.values()) : new Map()
    return this.schedulesNow
  }

  /** Each translation's release, and the instants of every file that may be published: the build's timeline. */
  published(): { schedules: Schedules; timeline: TimelineIndex } {
    const schedules = this.schedules()
    // The release index hands out one map as it keeps it; another map (an item with two default-locale
    // files: translation-schedule.ts works every release out anew) may differ anywhere.
    if (schedules !== this.timelineSchedules) {
      this.timeline.clear()
      this.timeline.refresh(this.compiled.values(), schedules)
      this.timelineSchedules = schedules
    } else this.timeline.refresh(this.retimed, schedules, (f) => this.compiled.get(f.source.path) === f)
    this.retimed = new Set()
    return { schedules, timeline: this.timeline }
  }

  /** The latest release or expiry of a published file after `asOf` and at or before `now`, if any. */
  due(asOf: number, now: number): number | undefined {
    const { timeline } = this.published()
    if (!timeline.passedBetween(asOf, now)) return undefined
    return timeline.at(now).last
  }
}
