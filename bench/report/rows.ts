/** One measured row of the benchmark table, with its baseline and target. */
export type Unit = 'ms' | 'MB' | 'KB' | 'req/s'

export interface Row {
  /** Stable key, e.g. `build.cold`. */
  id: string
  section: 'build' | 'scale' | 'gateway' | 'memory' | 'size'
  label: string
  /** Median of the runs; null when the row is pending or skipped (see `note`). */
  value: number | null
  unit: Unit
  runs?: number[]
  /** What the value is compared with, measured in the same run. */
  baseline?: { label: string; value: number | null }
  /** value / baseline.value. */
  ratio?: number | null
  /** Latency percentiles for load rows. */
  latency?: { p50: number; p99: number }
  target?: { text: string; pass: boolean | null }
  note?: string
}

export function ratioOf(value: number | null, baseline: number | null | undefined): number | null {
  return value === null || !baseline ? null : value / baseline
}

export function pending(
  id: string,
  section: Row['section'],
  label: string,
  unit: Unit,
  note: string,
  target?: string,
): Row {
  return { id, section, label, value: null, unit, note, ...(target ? { target: { text: target, pass: null } } : {}) }
}
