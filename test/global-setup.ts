/**
 * Once per test run: build a copy of the fixture content, keeping its dist/
 * and its caches (rendered Markdown, processed images and social cards). A
 * test's copy of the fixture content starts with the caches (helpers/project.ts),
 * so the many suites that build it do not each render the same bodies and
 * encode the same images again; a suite that only serves the build can start
 * from its dist/ too (`copyOfBuiltFixture`), which its own build then finds up
 * to date. The caches are content-addressed and correctness never depends on
 * them (the render-cache and media suites test that); suites that test a cold
 * build pass `cache: false`, which ignores them.
 *
 * And the run's one Chromium (helpers/chromium.ts), which the browser tests
 * connect to rather than each starting their own.
 */
import { execFile } from 'node:child_process'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { BrowserServer } from 'playwright-core'
import type { TestProject } from 'vitest/node'
import { CHROMIUM_KEY, launchChromiumServer } from './helpers/chromium.ts'
import { FIXTURE_BUILD_KEY, FIXTURE_CONTENT, REPO_ROOT } from './helpers/project.ts'
import { removeRunTmpDir } from './helpers/tmp-dir.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    [FIXTURE_BUILD_KEY]: string
    [CHROMIUM_KEY]: string
  }
}

/**
 * The projects of vitest.config.ts each run the set-up (they extend the root config): one build
 * and one browser serve them all.
 */
const shared = globalThis as {
  fixtureBuild?: Promise<string>
  chromium?: Promise<BrowserServer>
  chromiumClosed?: Promise<void>
  tmpRemoved?: Promise<void>
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.fixtureBuild ??= buildFixture(project.config.env)
  shared.chromium ??= launchChromiumServer()
  const [root, chromium] = await Promise.all([shared.fixtureBuild, shared.chromium])
  project.provide(FIXTURE_BUILD_KEY, root)
  project.provide(CHROMIUM_KEY, chromium.wsEndpoint())
  return async () => {
    shared.chromiumClosed ??= chromium.close()
    await shared.chromiumClosed
    await rm(root, { recursive: true, force: true })
    shared.tmpRemoved ??= removeRunTmpDir()
    await shared.tmpRemoved
  }
}

async function buildFixture(testEnv: Record<string, string | undefined>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'content-api-fixture-build-'))
  await cp(FIXTURE_CONTENT, join(root, 'content'), { recursive: true })
  // `npm run build` as an author runs it (the set-up's module runner cannot load the compiler
  // in-process), in the test files' environment (vitest.config.ts's `env`, which is not this
  // process's own): as of their BUILD_TIME, so that their builds find this dist/ up to date. The
  // copy has no git history: its build does without it whatever REQUIRE_HISTORY `npm test` was run
  // with (CI's is on).
  await promisify(execFile)(process.execPath, ['build/run.mjs', 'cli', 'build', '--root', root], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...testEnv, LOG_LEVEL: 'warn', REQUIRE_HISTORY: 'off' },
  })
  return root
}
