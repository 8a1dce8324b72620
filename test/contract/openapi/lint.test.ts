/**
 * The built openapi.json under the linters API teams use: Spectral with its
 * OpenAPI rules and the OWASP API Security ruleset (.spectral.yaml), and
 * Redocly's recommended rules (redocly.yaml, .redocly.lint-ignore.yaml).
 * No finding of any severity: a rule that does not fit is switched off in
 * those files, with its reason. Both tools run offline (CI has no internet):
 * the OWASP ruleset resolves from node_modules and Redocly's telemetry and
 * update check are off.
 */
import { execFile } from 'node:child_process'
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { buildSite } from '../../../build/compiler/build.ts'
import { copyOfBuiltFixture, REPO_ROOT, type TempProject } from '../../helpers/project.ts'
import { HEALTH_PATH } from '../../../contract/public-paths.ts'
import { documentedPaths, ROUTES } from '../../../contract/routes/index.ts'
import type { Route } from '../../../contract/routes/route.ts'
import { FIXTURE_MODEL } from '../../helpers/site.ts'

const run = promisify(execFile)
/** Inside the repository: the rulesets' per-place exceptions name files relative to it. */
const LINTED = 'test-artifacts/lint/openapi.json'
const bin = (name: string) => join(REPO_ROOT, 'node_modules/.bin', name)
const OFFLINE_ENV = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }

/** stdout of a linter that exits non-zero when it finds something (the findings are what the test looks at). */
async function lint(command: string, args: string[]): Promise<string> {
  try {
    return (await run(command, args, { cwd: REPO_ROOT, env: OFFLINE_ENV, maxBuffer: 64 * 1024 * 1024 })).stdout
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: number }
    if (failed.stdout?.trim().startsWith('[') || failed.stdout?.trim().startsWith('{')) return failed.stdout
    throw new Error(`${command} failed (${failed.code}): ${failed.stderr ?? ''}`)
  }
}

let project: TempProject

beforeAll(async () => {
  project = await copyOfBuiltFixture()
  await buildSite({ root: project.root })
  await mkdir(join(REPO_ROOT, 'test-artifacts/lint'), { recursive: true })
  await copyFile(join(project.dist, 'openapi.json'), join(REPO_ROOT, LINTED))
}, 60_000)
afterAll(() => project?.remove())

describe('openapi.json under the linters', () => {
  it('has no Spectral finding (OpenAPI rules and OWASP API Security Top 10)', async () => {
    const out = await lint(bin('spectral'), [
      'lint',
      LINTED,
      '--ruleset',
      '.spectral.yaml',
      '--format',
      'json',
      '--fail-severity',
      'hint',
    ])
    // Spectral prints a line after the JSON when nothing is found.
    const findings = JSON.parse(out.slice(0, out.lastIndexOf(']') + 1)) as {
      code: string
      path: string[]
      message: string
      severity: number
    }[]
    expect(
      findings.map(
        (f) => `${['error', 'warning', 'info', 'hint'][f.severity]} ${f.code} at ${f.path.join('/')}: ${f.message}`,
      ),
    ).toEqual([])
  }, 60_000)

  it('has no Redocly problem (recommended rules)', async () => {
    const out = await lint(bin('redocly'), ['lint', LINTED, '--format', 'json'])
    const report = JSON.parse(out) as {
      totals: { errors: number; warnings: number; ignored: number }
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[]
    }
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual(
      [],
    )
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  }, 60_000)

  it('excepts from the rate-limit rules exactly the documented routes without a budget (never a route the gateway computes)', async () => {
    const ruleset = parse(await readFile(join(REPO_ROOT, '.spectral.yaml'), 'utf8')) as {
      overrides: { files: string[]; rules: Record<string, string> }[]
    }
    const excepted = ruleset.overrides
      .filter((o) => o.rules['owasp:api4:2023-rate-limit'] === 'off')
      .flatMap((o) => o.files)
      .map((file) => decodeURIComponent(file.split('#/paths/')[1]!).replaceAll('~1', '/'))
    const unbudgeted = (Object.values(ROUTES) as Route[])
      .filter((route) => 'operations' in route && !route.budgets?.length)
      .flatMap((route) => documentedPaths(route, FIXTURE_MODEL).map((p) => p.path))
    expect(excepted.sort()).toEqual(unbudgeted.sort())
    for (const id of ['search', 'changes', 'list'] as const) expect(ROUTES[id].budgets).toContain('computed')
  })

  it('finds the problems it is there for (a string without maxLength, an operation without a 4XX)', async () => {
    const broken = JSON.parse(await readFile(join(REPO_ROOT, LINTED), 'utf8')) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
      components: { parameters: Record<string, { schema: Record<string, unknown> }> }
    }
    delete broken.components.parameters.q!.schema.maxLength
    for (const status of Object.keys(broken.paths[HEALTH_PATH]!.get!.responses))
      if (status.startsWith('4')) delete broken.paths[HEALTH_PATH]!.get!.responses[status]
    const file = 'test-artifacts/lint/broken/openapi.json'
    await mkdir(join(REPO_ROOT, 'test-artifacts/lint/broken'), { recursive: true })
    await writeFile(join(REPO_ROOT, file), JSON.stringify(broken, null, 2))
    const spectral = await lint(bin('spectral'), ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json'])
    expect(spectral).toContain('owasp:api4:2023-string-limit')
    const redocly = JSON.parse(await lint(bin('redocly'), ['lint', file, '--format', 'json'])) as {
      problems: { ruleId: string }[]
    }
    expect(redocly.problems.map((p) => p.ruleId)).toContain('operation-4xx-response')
  }, 60_000)
})
