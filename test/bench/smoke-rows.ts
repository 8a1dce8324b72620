/**
 * What the smoke bench's report must hold (test/own-content.test.ts runs the bench): a number
 * for every row of the table, but for the rows that wait for a feature another issue is still
 * building and, on a machine without Hugo, Hugo's own rows and baselines.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect } from 'vitest'
import type { Report } from '../../bench/report/format.ts'

/** Rows that wait for a feature another issue is still building. */
const MAY_BE_PENDING = new Set(['build.watch', 'gateway.mcp', 'gateway.mcp-p95'])

/** Whether Hugo, the smoke bench's peer, is installed here. */
export const hasHugo = () =>
  promisify(execFile)('hugo', ['version']).then(
    () => true,
    () => false,
  )

/** Every row of `report` (at least 16) has a finite number, and so has its baseline if it has one. */
export function expectEveryRowANumber(report: Report, hugo: boolean): void {
  expect(report.rows.length).toBeGreaterThanOrEqual(16)
  for (const row of report.rows) {
    const waiting = MAY_BE_PENDING.has(row.id) && row.note?.startsWith('pending:')
    const noHugo = !hugo && ((/hugo/i.test(row.id) && row.value === null) || row.baseline?.label === 'Hugo')
    if (waiting || noHugo) continue
    expect(row.value, `${row.id}: ${row.note ?? ''}`).toBeTypeOf('number')
    expect(Number.isFinite(row.value), row.id).toBe(true)
    if (row.baseline) expect(row.baseline.value, `${row.id} baseline`).toBeTypeOf('number')
  }
}
