/** The table, as Markdown (latest.md, BENCHMARKS.md) and as the console prints it. */
import type { MachineInfo } from '../lib/machine.ts'
import type { Row, Unit } from './rows.ts'

export interface Report {
  generated_at: string
  smoke: boolean
  config: Record<string, number | string | boolean>
  machine: MachineInfo
  rows: Row[]
}

export function formatValue(value: number | null | undefined, unit: Unit): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—'
  if (unit === 'ms')
    return value >= 10_000
      ? `${(value / 1000).toFixed(1)} s`
      : value >= 1000
        ? `${(value / 1000).toFixed(2)} s`
        : `${value.toFixed(value < 10 ? 2 : 0)} ms`
  if (unit === 'req/s') return `${Math.round(value).toLocaleString('en')} req/s`
  if (unit === 'KB') return `${value.toLocaleString('en', { maximumFractionDigits: 0 })} KB`
  return `${value.toFixed(value < 10 ? 1 : 0)} MB`
}

function verdict(row: Row): string {
  if (!row.target) return ''
  return row.target.pass === null ? '…' : row.target.pass ? '✓' : '✗'
}

export function tableRows(report: Report): string[][] {
  return report.rows.map((row) => [
    row.label,
    row.value === null ? (row.note ?? 'pending') : formatValue(row.value, row.unit),
    row.baseline ? `${row.baseline.label}: ${formatValue(row.baseline.value, row.unit)}` : '',
    row.ratio === undefined || row.ratio === null ? '' : `${row.ratio.toFixed(2)}×`,
    row.latency ? `${row.latency.p50} / ${row.latency.p99} ms` : '',
    row.target ? `${row.target.text} ${verdict(row)}` : '',
  ])
}

const HEADER = ['measure', 'median', 'baseline (same run)', 'ratio', 'p50 / p99', 'target']

export function toMarkdown(report: Report): string {
  const m = report.machine
  const lines = [
    `# Benchmark results${report.smoke ? ' (smoke)' : ''}`,
    '',
    `${report.generated_at} · ${m.cpus} × ${m.cpu_model}, ${m.memory_gb} GB, ${m.os}, Node ${m.node} · load average at start ${m.load_average.join(' ')} · commit ${m.commit}`,
    '',
    `Versions: ${Object.entries(m.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    `Settings: ${Object.entries(report.config)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}.`,
    '',
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map(() => '---').join('|')}|`,
    ...tableRows(report).map((cells) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`),
    '',
  ]
  const notes = report.rows.filter((r) => r.note && r.value !== null)
  if (notes.length) lines.push(...notes.map((r) => `- ${r.label}: ${r.note}`), '')
  return lines.join('\n')
}

/** A plain fixed-width table for the terminal. */
export function toConsole(report: Report): string {
  const rows = [HEADER, ...tableRows(report)]
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)))
  return rows
    .map((r) =>
      r
        .map((c, i) => c + ' '.repeat(widths[i]! - [...c].length))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}
