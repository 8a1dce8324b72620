/**
 * What CI's test step runs (.ci/run), run with the environment the workflow
 * gives that step (REQUIRE_HISTORY=on, meant for the repository's own content/):
 * the copies built without git history under it build all the same, each saying
 * so for its own build. Here the MCP conformance script; `npm test` itself
 * (vitest, its global set-up building the fixture content) and the smoke
 * bench's corpora in test/own-content.test.ts, which runs them in a copy of
 * the repository with that environment.
 */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify, stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { ciTestStepEnv, outsideVitest } from '../helpers/ci-step.ts'
import { REPO_ROOT } from '../helpers/project.ts'

const run = promisify(execFile)
type PackageJson = { devDependencies: { node: string } }
/** What a process exited with and printed, whether it failed or not. */
const finished = (command: string, args: string[], env: Record<string, string>) =>
  run(command, args, { cwd: REPO_ROOT, env, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stripVTControlCharacters(`${stdout}${stderr}`) }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      output: stripVTControlCharacters(`${e.stdout}${e.stderr}`),
    }),
  )

describe("CI's test step, with the workflow's environment for it", () => {
  it('sets REQUIRE_HISTORY=on there (what the builds below must not inherit)', async () => {
    expect(await ciTestStepEnv()).toMatchObject({ REQUIRE_HISTORY: 'on', GITHUB_ACTIONS: 'true' })
  })

  it("the MCP conformance script builds the tests' content and runs its scenarios, on the pinned Node", async () => {
    // The system's PATH, as in CI's container: the script finds the pinned Node itself where the system's is older than 22.
    const system = { ...outsideVitest(), ...(await ciTestStepEnv()), PATH: '/usr/local/bin:/usr/bin:/bin' }
    const systemNode = (await run('node', ['--version'], { env: system })).stdout.trim()
    const pinned = (JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson).devDependencies
      .node
    const expected = Number(systemNode.slice(1).split('.')[0]) >= 22 ? systemNode : `v${pinned}`
    const script = join(REPO_ROOT, 'test/gateway/mcp/conformance/run.sh')
    const result = await finished(script, ['ping@2025-11-25'], system)
    expect(result.output).not.toContain('REQUIRE_HISTORY is on')
    expect(result.code, result.output).toBe(0)
    expect(result.output).toMatch(
      new RegExp(`^MCP conformance against http://127\\.0\\.0\\.1:\\d+/mcp \\(Node ${expected}\\)$`, 'm'),
    )
    expect(result.output).toContain('✓ ping (2025-11-25)')
    expect(result.output).toContain('✓ all 1 conformance scenarios passed')
  }, 240_000)
})
