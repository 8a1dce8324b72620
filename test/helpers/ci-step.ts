/**
 * The environment CI gives its test step (the one that runs .ci/run), read from
 * the workflow itself: a test runs what that step runs with it, so a setting the
 * workflow adds there (REQUIRE_HISTORY=on) reaches the test as it reaches CI.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse } from 'yaml'
import { REPO_ROOT } from './project.ts'

type Env = Record<string, string | number | boolean>
interface Workflow {
  env?: Env
  jobs: Record<string, { env?: Env; steps: { run?: string; env?: Env }[] }>
}

/** What GitHub's runner sets in every step, besides what the workflow says. */
const RUNNER_ENV = { CI: 'true', GITHUB_ACTIONS: 'true' }

/** The workflow's, the job's and the step's `env:` for the step that runs .ci/run, over the runner's own. */
export async function ciTestStepEnv(): Promise<Record<string, string>> {
  const workflow = parse(await readFile(join(REPO_ROOT, '.github/workflows/ci.yml'), 'utf8')) as Workflow
  const found = Object.values(workflow.jobs).flatMap((job) =>
    job.steps.filter((step) => step.run?.trim() === '.ci/run').map((step) => ({ job, step })),
  )
  if (found.length !== 1) throw new Error(`expected one step that runs .ci/run, found ${found.length}`)
  const { job, step } = found[0]!
  const strings = (env: Env = {}) => Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]))
  return { ...RUNNER_ENV, ...strings(workflow.env), ...strings(job.env), ...strings(step.env) }
}

/**
 * This process's environment without what vitest set for its test files (their own settings,
 * REQUIRE_HISTORY=off among them, and its worker variables), for a process that runs as CI runs it.
 */
export function outsideVitest(): Record<string, string> {
  const own = new Set(['REQUIRE_HISTORY', 'BUILD_TIME', 'LOG_LEVEL', 'NODE_ENV', 'TEST'])
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !own.has(entry[0]) && !/^VITEST/.test(entry[0]),
    ),
  )
}
