/** Soak results: counts and latencies per kind, memory over time, the verdict, and the RELIABILITY.md section. */
import { readFile, writeFile } from 'node:fs/promises'

export interface KindStats {
  count: number
  unexpected: number
  durations: number[]
  statuses: Map<number, number>
}

export interface MemorySample {
  atSeconds: number
  rssMb: number
}

/** The authorization state's records (files of the store) at a moment: the anonymous floods' kinds, and all. */
export interface RecordSample {
  atSeconds: number
  clients: number
  interactions: number
  total: number
}

export interface SoakResult {
  seconds: number
  workers: number
  warmupSeconds: number
  kinds: Map<string, KindStats>
  memory: MemorySample[]
  records: RecordSample[]
  /** OAUTH_MAX_REGISTERED_CLIENTS and OAUTH_MAX_PENDING_AUTHORIZATIONS of the run. */
  ceiling: number
  /** First few unexpected answers, for the report. */
  samples: string[]
  gatewayErrors: string[]
  machine: string
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : Number.NaN
const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  )

export interface MemoryVerdict {
  startMb: number
  endMb: number
  peakMb: number
  growthPercent: number
  slopeMbPerMinute: number
  flat: boolean
}

/** Resident memory after warm-up: the median of its first and last few samples, and the least-squares slope. */
export function memoryVerdict(result: SoakResult, maxGrowthPercent = 10): MemoryVerdict {
  const after = result.memory.filter((m) => m.atSeconds >= result.warmupSeconds)
  const window = Math.max(1, Math.min(6, Math.floor(after.length / 4)))
  const startMb = median(after.slice(0, window).map((m) => m.rssMb))
  const endMb = median(after.slice(-window).map((m) => m.rssMb))
  const n = after.length
  const mx = after.reduce((s, m) => s + m.atSeconds, 0) / n
  const my = after.reduce((s, m) => s + m.rssMb, 0) / n
  const sxy = after.reduce((s, m) => s + (m.atSeconds - mx) * (m.rssMb - my), 0)
  const sxx = after.reduce((s, m) => s + (m.atSeconds - mx) ** 2, 0)
  const growthPercent = ((endMb - startMb) / startMb) * 100
  return {
    startMb,
    endMb,
    peakMb: Math.max(...after.map((m) => m.rssMb)),
    growthPercent,
    slopeMbPerMinute: sxx ? (sxy / sxx) * 60 : 0,
    flat: growthPercent <= maxGrowthPercent,
  }
}

export interface RecordsVerdict {
  maxClients: number
  maxInteractions: number
  totalStart: number
  totalEnd: number
  totalPeak: number
  /** Registered clients and authorization requests in progress never above their ceiling. */
  bounded: boolean
}

export function recordsVerdict(result: SoakResult): RecordsVerdict {
  const max = (pick: (r: RecordSample) => number) => Math.max(0, ...result.records.map(pick))
  const maxClients = max((r) => r.clients)
  const maxInteractions = max((r) => r.interactions)
  return {
    maxClients,
    maxInteractions,
    totalStart: result.records[0]?.total ?? 0,
    totalEnd: result.records.at(-1)?.total ?? 0,
    totalPeak: max((r) => r.total),
    bounded: maxClients <= result.ceiling && maxInteractions <= result.ceiling,
  }
}

export function unexpectedTotal(result: SoakResult): number {
  return [...result.kinds.values()].reduce((s, k) => s + k.unexpected, 0)
}

/** The Markdown section written into RELIABILITY.md. */
export function toMarkdown(result: SoakResult, memory: MemoryVerdict, records: RecordsVerdict, when: Date): string {
  const total = [...result.kinds.values()].reduce((s, k) => s + k.count, 0)
  const rows = [...result.kinds.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, k]) => {
      const sorted = [...k.durations].sort((a, b) => a - b)
      const statuses = [...k.statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([s, c]) => `${s}×${c}`)
        .join(' ')
      return `| ${kind} | ${k.count} | ${statuses} | ${k.unexpected} | ${quantile(sorted, 0.5).toFixed(1)} | ${quantile(sorted, 0.99).toFixed(1)} |`
    })
  const ok = unexpectedTotal(result) === 0 && result.gatewayErrors.length === 0 && memory.flat && records.bounded
  return [
    `Run ${when.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${result.seconds} s (${result.warmupSeconds} s warm-up), ${result.workers} workers plus one flooding client and two anonymous floods (registrations, authorization starts), on ${result.machine}.`,
    '',
    `**${ok ? 'Pass' : 'FAIL'}**: ${total} requests (${(total / result.seconds).toFixed(0)}/s), ${unexpectedTotal(result)} unexpected answers, ${result.gatewayErrors.length} error lines in the gateway's log; resident memory after warm-up ${memory.startMb.toFixed(1)} → ${memory.endMb.toFixed(1)} MB (${memory.growthPercent >= 0 ? '+' : ''}${memory.growthPercent.toFixed(1)} %, slope ${memory.slopeMbPerMinute.toFixed(2)} MB/min, peak ${memory.peakMb.toFixed(1)} MB).`,
    '',
    `Authorization state in the store (ceilings ${result.ceiling}): at most ${records.maxClients} registered clients and ${records.maxInteractions} authorization requests in progress; all records ${records.totalStart} → ${records.totalEnd} (peak ${records.totalPeak}; the rest are the failed-authentication windows of the guessing clients, 15 minutes each).`,
    '',
    '| kind | requests | statuses | unexpected | p50 ms | p99 ms |',
    '|---|---:|---|---:|---:|---:|',
    ...rows,
    '',
    `Resident memory (MB) every ${result.memory.length > 1 ? Math.round(result.memory[1]!.atSeconds - result.memory[0]!.atSeconds) : 0} s: ${result.memory.map((m) => m.rssMb.toFixed(0)).join(' ')}`,
    '',
    `Registered clients / authorization requests in progress / all records, at the same moments: ${result.records.map((r) => `${r.clients}/${r.interactions}/${r.total}`).join(' ')}`,
    ...(result.samples.length ? ['', 'First unexpected answers:', '', ...result.samples.map((s) => `- ${s}`)] : []),
    ...(result.gatewayErrors.length
      ? ['', 'Gateway error lines:', '', ...result.gatewayErrors.slice(0, 5).map((s) => `- \`${s.slice(0, 300)}\``)]
      : []),
  ].join('\n')
}

const START = '<!-- soak:start -->'
const END = '<!-- soak:end -->'

/** Replace the section between the soak markers of RELIABILITY.md. */
export async function writeSection(file: string, markdown: string): Promise<void> {
  const text = await readFile(file, 'utf8')
  const start = text.indexOf(START)
  const end = text.indexOf(END)
  if (start < 0 || end < start) throw new Error(`${file} has no ${START} … ${END} section`)
  await writeFile(file, `${text.slice(0, start + START.length)}\n${markdown}\n${text.slice(end)}`)
}
