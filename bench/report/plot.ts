/**
 * The scale curve as an SVG (BENCHMARKS.md shows it): cold build time of ours
 * and Hugo's against the item count, and the watch mode's edit → served, on
 * log–log axes, so a straight line is a power law and its slope how cost
 * grows with size (1: linear).
 */
import type { Row } from './rows.ts'

const W = 720
const H = 360
const PAD = { left: 64, right: 150, top: 28, bottom: 44 }

interface Series {
  label: string
  color: string
  dash?: string
  points: [items: number, ms: number][]
}

/** The SVG, from the report's `scale.*` rows; undefined when it has none. */
export function scalePlot(rows: readonly Row[]): string | undefined {
  const cold = rows.filter((r) => r.id.startsWith('scale.cold-') && r.value !== null)
  if (!cold.length) return undefined
  const itemsOf = (r: Row) => Number(r.id.split('-').at(-1))
  const series = (
    [
      { label: 'our cold build', color: '#1f6feb', points: cold.map((r): [number, number] => [itemsOf(r), r.value!]) },
      {
        label: 'Hugo cold build',
        color: '#d73a49',
        points: cold.filter((r) => r.baseline?.value).map((r): [number, number] => [itemsOf(r), r.baseline!.value!]),
      },
      {
        label: 'edit → served',
        color: '#2da44e',
        dash: '6 4',
        points: rows
          .filter((r) => r.id.startsWith('scale.watch-') && r.value !== null)
          .map((r): [number, number] => [itemsOf(r), r.value!]),
      },
    ] satisfies Series[]
  ).filter((s) => s.points.length)
  const all = series.flatMap((s) => s.points)
  const [x0, x1] = decades(all.map((p) => p[0]))
  const [y0, y1] = decades(all.map((p) => p[1]))
  const x = (v: number) => PAD.left + ((Math.log10(v) - x0) / (x1 - x0)) * (W - PAD.left - PAD.right)
  const y = (v: number) => H - PAD.bottom - ((Math.log10(v) - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom)
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${PAD.left}" y="18" font-size="14">Cost against size (log–log; medians of the run)</text>`,
  ]
  for (let d = x0; d <= x1; d++)
    for (const m of [1, 3]) {
      const v = m * 10 ** d
      if (Math.log10(v) > x1) continue
      out.push(
        `<line x1="${x(v)}" x2="${x(v)}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#eee"/>`,
        `<text x="${x(v)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${v.toLocaleString('en')}</text>`,
      )
    }
  for (let d = y0; d <= y1; d++) {
    const v = 10 ** d
    out.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/>`,
      `<text x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end">${v >= 1000 ? `${v / 1000} s` : `${v} ms`}</text>`,
    )
  }
  out.push(`<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 8}" text-anchor="middle">items</text>`)
  for (const [i, s] of series.entries()) {
    const path = s.points.map(([a, b], j) => `${j ? 'L' : 'M'}${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(' ')
    out.push(
      `<path d="${path}" fill="none" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`,
    )
    for (const [a, b] of s.points)
      out.push(`<circle cx="${x(a).toFixed(1)}" cy="${y(b).toFixed(1)}" r="3" fill="${s.color}"/>`)
    const ly = PAD.top + 10 + i * 18
    out.push(
      `<line x1="${W - PAD.right + 12}" x2="${W - PAD.right + 32}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`,
      `<text x="${W - PAD.right + 38}" y="${ly + 4}">${s.label}</text>`,
    )
  }
  out.push('</svg>')
  return `${out.join('\n')}\n`
}

/** The whole decades (as powers of ten) around the values. */
function decades(values: number[]): [number, number] {
  return [Math.floor(Math.log10(Math.min(...values))), Math.ceil(Math.log10(Math.max(...values)))]
}
