/**
 * The smoke bench (one run of everything) must keep working: every row
 * produces a number. Nothing about speed is asserted, so it runs at the
 * smallest sizes that still yield every row (`npm run bench:smoke` keeps its
 * few hundred items): 60 generated items (20 in the small corpus, 120 in the
 * large one), a scale curve of 60 items of real prose (the fewest that copy
 * every hand-written item, whose links must find their targets), 2 images and
 * load runs of a quarter of a second.
 * Its hand-written content is the tests' own (test/fixtures/content), never content/.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import type { Report } from '../../bench/report/format.ts'
import { isRunning, SET_ASIDE_PREFIX } from '../../bench/lib/set-aside.ts'
import { REPO_ROOT } from '../helpers/project.ts'

const run = promisify(execFile)
/** Rows that wait for a feature another issue is still building. */
const MAY_BE_PENDING = new Set(['build.watch', 'gateway.mcp', 'gateway.mcp-p95'])

describe('bench:smoke', () => {
  let out: string | undefined
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true })
  })

  it('produces a number for every row of the table', { timeout: 900_000 }, async () => {
    out = await mkdtemp(join(tmpdir(), 'bench-smoke-'))
    const sizes = ['--items', '60', '--sizes', '60', '--images', '2', '--load-seconds', '0.25']
    await run(
      process.execPath,
      ['--import', 'tsx', 'bench/run.ts', '--smoke', '--no-install', ...sizes, '--out', out],
      {
        cwd: REPO_ROOT,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, LOG_LEVEL: 'info' },
      },
    )
    const report = JSON.parse(await readFile(join(out, 'smoke.json'), 'utf8')) as Report & {
      config: { content: string }
    }
    expect(report.config.content).toBe('test/fixtures/content')
    const hugo = await run('hugo', ['version']).then(
      () => true,
      () => false,
    )
    expect(report.rows.length).toBeGreaterThanOrEqual(16)
    for (const row of report.rows) {
      const waiting = MAY_BE_PENDING.has(row.id) && row.note?.startsWith('pending:')
      const noHugo = !hugo && ((/hugo/i.test(row.id) && row.value === null) || row.baseline?.label === 'Hugo')
      if (waiting || noHugo) continue
      expect(row.value, `${row.id}: ${row.note ?? ''}`).toBeTypeOf('number')
      expect(Number.isFinite(row.value), row.id).toBe(true)
      if (row.baseline) expect(row.baseline.value, `${row.id} baseline`).toBeTypeOf('number')
    }
    expect(await readFile(join(out, 'smoke.md'), 'utf8')).toContain('| measure |')
    // What the runs set aside instead of deleting (bench/lib/set-aside.ts) is gone once the bench ends.
    const left = (await readdir(tmpdir())).filter((name) => name.startsWith(SET_ASIDE_PREFIX))
    expect(left.filter((name) => !isRunning(Number(name.slice(SET_ASIDE_PREFIX.length))))).toEqual([])
  })
})
