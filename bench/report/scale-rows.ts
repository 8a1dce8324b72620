/**
 * Rows of the scale curve (issue 26): per size, our cold build against
 * Hugo's on the same realistic corpus and the watch mode's edit → served;
 * the peak build memory at the largest size; `npm run check` on the
 * content the corpus copies.
 */
import type { ProcessResult } from '../lib/process.ts'
import { median } from '../lib/stats.ts'
import type { ScaleSample } from '../suites/scale.ts'
import { pending, ratioOf, type Row } from './rows.ts'
import { mcpRows } from './search-rows.ts'

/** From this size on, the cold build must not be slower than Hugo's, and an edit served within 20 ms. */
const LARGE = 10_000

const wall = (runs: ProcessResult[]) => median(runs.map((r) => r.wallMs))
const peak = (runs: ProcessResult[]) => {
  const values = runs.map((r) => r.peakRssMb).filter((v): v is number => v !== undefined)
  return values.length ? median(values) : null
}
const n = (count: number) => count.toLocaleString('en')

/** `checked` names the content `npm run check` ran on, as the row's label says it. */
export function scaleRows(scale: readonly ScaleSample[], check: ProcessResult[], checked: string): Row[] {
  const rows: Row[] = []
  for (const s of scale) {
    const ours = wall(s.ours)
    const hugo = typeof s.hugo === 'string' ? null : wall(s.hugo)
    const limit = s.items >= LARGE ? 1 : 1.5
    rows.push({
      id: `scale.cold-${s.items}`,
      section: 'scale',
      label: `cold build, ${n(s.items)} items of real prose (vs Hugo)`,
      value: ours,
      unit: 'ms',
      runs: s.ours.map((r) => r.wallMs),
      baseline: { label: 'Hugo', value: hugo },
      ratio: ratioOf(ours, hugo),
      target: { text: `≤ ${limit}× Hugo`, pass: hugo === null ? null : ours <= limit * hugo },
      ...(typeof s.hugo === 'string' ? { note: s.hugo } : {}),
    })
  }
  for (const s of scale) {
    const label = `watch: edit → new bytes served, ${n(s.items)} items of real prose`
    const target = s.items >= LARGE ? '≤ 20 ms median' : undefined
    if (typeof s.watch === 'string') {
      rows.push(pending(`scale.watch-${s.items}`, 'scale', label, 'ms', s.watch, target))
      continue
    }
    const value = median(s.watch)
    rows.push({
      id: `scale.watch-${s.items}`,
      section: 'scale',
      label,
      value,
      unit: 'ms',
      runs: s.watch,
      baseline: { label: 'cold build', value: wall(s.ours) },
      ratio: ratioOf(value, wall(s.ours)),
      ...(target ? { target: { text: target, pass: value <= 20 } } : {}),
    })
  }
  for (const s of scale)
    if (s.search !== undefined) rows.push(...mcpRows(s.search, s.items, `scale.${s.items}`, ' of real prose'))
  const largest = scale.at(-1)
  if (largest) {
    const ours = peak(largest.ours)
    const hugo = typeof largest.hugo === 'string' ? null : peak(largest.hugo)
    rows.push({
      id: `scale.memory-${largest.items}`,
      section: 'scale',
      label: `peak memory of the cold build, ${n(largest.items)} items of real prose`,
      value: ours,
      unit: 'MB',
      baseline: { label: 'Hugo', value: hugo },
      ratio: ratioOf(ours, hugo),
      target: { text: '≤ Hugo', pass: ours === null || hugo === null ? null : ours <= hugo },
    })
  }
  const checkMs = wall(check)
  rows.push({
    id: 'build.check',
    section: 'build',
    label: `npm run check, ${checked}`,
    value: checkMs,
    unit: 'ms',
    runs: check.map((r) => r.wallMs),
    target: { text: '< 1 s', pass: checkMs < 1000 },
  })
  return rows
}
