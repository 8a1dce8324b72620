/**
 * The tests' content is their own, shown rather than scanned for (the scan is
 * test/fixtures.test.ts): a copy of the repository with an author's invalid
 * draft in its content/ — which `npm run check` there refuses, naming it — in
 * which the suites that once read content/ run as CI runs them (with the
 * workflow's environment for its test step, REQUIRE_HISTORY=on included): the
 * smoke bench, whose stages that read hand-written content (`npm run check` and
 * the scale curve's realistic corpus) read the tests' own, and the REST suite the draft used to fail
 * (`npm test` on one file: its global set-up builds the fixture content under
 * REQUIRE_HISTORY=on, which that copy without git history must not inherit).
 */
import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify, stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isRunning, SET_ASIDE_PREFIX } from '../bench/lib/set-aside.ts'
import type { Report } from '../bench/report/format.ts'
import { expectEveryRowANumber, hasHugo } from './bench/smoke-rows.ts'
import { ciTestStepEnv, outsideVitest } from './helpers/ci-step.ts'
import { REPO_ROOT } from './helpers/project.ts'

const run = promisify(execFile)
const DRAFT = 'content/blog-posts/work-in-progress.md'

let copy: string
let env: Record<string, string>
beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), 'content-api-repository-'))
  // The repository as a clone of this branch would have it (its files, committed or not, but none git ignores).
  const listed = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT })
  for (const file of new Set(listed.stdout.split('\0').filter(Boolean))) {
    await mkdir(dirname(join(copy, file)), { recursive: true })
    await cp(join(REPO_ROOT, file), join(copy, file)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e // deleted in the working tree, not yet committed
    })
  }
  await symlink(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'))
  // What an author has in content/ while writing: a draft without its required fields.
  await writeFile(join(copy, DRAFT), '---\ntitle: Work in progress\ndraft: true\n---\nNot done.\n')
  env = { ...outsideVitest(), ...(await ciTestStepEnv()), NO_COLOR: '1' }
}, 120_000)
afterAll(() => (copy ? rm(copy, { recursive: true, force: true }) : undefined))

/** `command args…` in the copy; what it exited with and printed. */
const inCopy = (command: string, args: string[]) =>
  run(command, args, { cwd: copy, env, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stripVTControlCharacters(`${stdout}${stderr}`) }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      output: stripVTControlCharacters(`${e.stdout}${e.stderr}`),
    }),
  )

describe("an author's invalid draft in content/", () => {
  it('is invalid: npm run check in the copy refuses it, naming the file', async () => {
    const check = await inCopy(process.execPath, ['build/run.mjs', 'cli', 'check', '--root', copy])
    expect(check.code).toBe(1)
    expect(check.output).toContain(DRAFT)
  }, 120_000)

  // The smoke bench (one run of everything) runs here, not in a file of its own: one run serves both
  // what this file asks of it and that every row produces a number. Nothing about speed is asserted,
  // so it runs at the smallest sizes that still yield every row (`npm run bench:smoke` keeps its few
  // hundred items): 60 generated items (20 in the small corpus, 120 in the large one), a scale curve
  // of 60 items of real prose (the fewest that copy every hand-written item, whose links must find
  // their targets), 2 images and load runs of a quarter of a second.
  it("does not reach the smoke bench, which reads the tests' content and produces a number for every row", async () => {
    const out = join(copy, 'bench-out')
    const bench = await inCopy(process.execPath, [
      ...['--import', 'tsx', 'bench/run.ts', '--smoke', '--no-install'],
      ...['--items', '60', '--sizes', '60', '--images', '2', '--load-seconds', '0.25'],
      ...['--out', out],
    ])
    expect(bench.code, bench.output.slice(-3000)).toBe(0)
    const report = JSON.parse(await readFile(join(out, 'smoke.json'), 'utf8')) as Report & {
      config: { content: string }
    }
    expect(report.config.content).toBe('test/fixtures/content')
    const rows = new Map(report.rows.map((row) => [row.id, row]))
    expect(rows.get('build.check')).toMatchObject({ label: "npm run check, the tests' fixture content" })
    for (const id of ['build.check', 'scale.cold-60']) expect(rows.get(id)?.value, id).toBeTypeOf('number')
    expectEveryRowANumber(report, await hasHugo())
    expect(await readFile(join(out, 'smoke.md'), 'utf8')).toContain('| measure |')
    // What the runs set aside instead of deleting (bench/lib/set-aside.ts) is gone once the bench ends.
    const left = (await readdir(tmpdir())).filter((name) => name.startsWith(SET_ASIDE_PREFIX))
    expect(left.filter((name) => !isRunning(Number(name.slice(SET_ASIDE_PREFIX.length))))).toEqual([])
  }, 900_000)

  it('does not reach the REST suite, which it once failed with "2 content errors"; npm test builds the fixture content under CI\'s environment', async () => {
    // `npm test` is `vitest run`: here on one file, which the global set-up builds the fixture content for.
    const vitest = join(copy, 'node_modules', 'vitest', 'vitest.mjs')
    const suite = await inCopy(process.execPath, [vitest, 'run', 'test/gateway/rest.test.ts'])
    expect(suite.output).not.toContain('work-in-progress')
    expect(suite.output).not.toContain('REQUIRE_HISTORY is on')
    expect(suite.code, suite.output.slice(-3000)).toBe(0)
    expect(suite.output).toMatch(/Test Files\s+1 passed \(1\)/)
  }, 300_000)
})
