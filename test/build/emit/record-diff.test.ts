/**
 * What a per-collection emitter is told changed (build/emit/record-diff.ts):
 * after any sequence of lists — records saved again (new objects under their
 * slug), moved, added, removed, on lists of the same length or not — the
 * records added are exactly those not in the last list, and the records gone
 * exactly those of the last list not in the new one.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RecordDiff } from '../../../build/emit/record-diff.ts'
import type { FullRecord } from '../../../contract/records.ts'

const recordOf = (slug: string) => ({ slug }) as FullRecord

const step = fc.record({
  kind: fc.constantFrom('save', 'move', 'add', 'remove', 'same'),
  at: fc.nat(),
  to: fc.nat(),
})

describe('the records an edit changed', () => {
  it('are those not in the last list (added) and those of the last list not in this one (gone)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.array(step, { maxLength: 25 }), (size, steps) => {
        const diff = new RecordDiff()
        let list = Array.from({ length: size }, (_, i) => recordOf(`s${i}`))
        let fresh = size
        const first = diff.update(list)
        expect(first).toEqual({ added: list, gone: [] })
        for (const { kind, at, to } of steps) {
          const next = [...list]
          const i = next.length ? at % next.length : 0
          if (kind === 'save' && next.length) next[i] = recordOf(next[i]!.slug)
          if (kind === 'move' && next.length) next.splice(to % next.length, 0, ...next.splice(i, 1))
          if (kind === 'add') next.splice(at % (next.length + 1), 0, recordOf(`s${fresh++}`))
          if (kind === 'remove' && next.length) next.splice(i, 1)
          const { added, gone } = diff.update(next)
          const before = new Set(list)
          const after = new Set(next)
          expect(new Set(added)).toEqual(new Set(next.filter((r) => !before.has(r))))
          expect(new Set(gone)).toEqual(new Set(list.filter((r) => !after.has(r))))
          expect(added.length + gone.length).toBe(new Set([...added, ...gone]).size)
          list = next
        }
      }),
      { numRuns: 500 },
    )
  })
})
