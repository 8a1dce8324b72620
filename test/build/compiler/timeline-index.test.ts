/**
 * The timeline kept by difference (build/compiler/timeline-index.ts) against
 * the pass over every file it replaced: after any sequence of files added,
 * replaced, made drafts and removed, the last and next instants around any
 * clock, and whether one passed between two clocks, are the same.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TimelineIndex } from '../../../build/compiler/timeline-index.ts'
import type { CompiledFile } from '../../../build/pipeline/compile.ts'
import type { PublicationWindow, Timeline } from '../../../build/pipeline/schedule.ts'

/** Only what a default-locale file's publication reads: its draft flag and window. */
const fileOf = (draft: boolean, window: PublicationWindow | undefined, path: string) =>
  ({ draft, window, source: { path } }) as unknown as CompiledFile

/** The windows of the files that may be published, every time from scratch. */
function published(files: Iterable<CompiledFile>): PublicationWindow[] {
  return [...files].flatMap((f) =>
    !f.draft && f.window && !(f.window.until !== undefined && f.window.until <= f.window.from) ? [f.window] : [],
  )
}

function timelineAt(windows: PublicationWindow[], now: number): Timeline {
  const instants = windows.flatMap((w) => (w.until === undefined ? [w.from] : [w.from, w.until]))
  const before = instants.filter((t) => t <= now)
  const after = instants.filter((t) => t > now)
  return {
    last: before.length ? Math.max(...before) : undefined,
    next: after.length ? Math.min(...after) : undefined,
  }
}

const passedBetween = (windows: PublicationWindow[], before: number, now: number) =>
  now > before &&
  windows.some(
    (w) => (w.from > before && w.from <= now) || (w.until !== undefined && w.until > before && w.until <= now),
  )

// Few distinct instants, so windows share their ends and counts matter.
const instant = fc.integer({ min: 0, max: 40 })
const operation = fc.record({
  path: fc.constantFrom('a.md', 'b.md', 'c.md', 'd.md', 'e.md'),
  remove: fc.boolean(),
  draft: fc.boolean(),
  from: fc.option(instant, { nil: undefined }),
  length: fc.option(fc.integer({ min: -3, max: 15 }), { nil: undefined }),
})

describe('the timeline kept by difference', () => {
  it('answers as a pass over every file would, after any edits', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 30 }),
        fc.array(fc.tuple(instant, instant), { minLength: 5 }),
        (ops, clocks) => {
          const timeline = new TimelineIndex()
          const files = new Map<string, CompiledFile>()
          const schedules = new Map()
          for (const op of ops) {
            const before = files.get(op.path)
            if (op.remove) files.delete(op.path)
            else {
              const window =
                op.from === undefined
                  ? undefined
                  : { from: op.from, until: op.length === undefined ? undefined : op.from + op.length }
              files.set(op.path, fileOf(op.draft, window, op.path))
            }
            const changed = [before, files.get(op.path)].filter((f) => f !== undefined)
            timeline.refresh(changed, schedules, (f) => files.get(f.source.path) === f)
            const windows = published(files.values())
            for (const [a, b] of clocks) {
              expect(timeline.at(a)).toEqual(timelineAt(windows, a))
              expect(timeline.passedBetween(a, b)).toBe(passedBetween(windows, a, b))
            }
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
