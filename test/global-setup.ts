/**
 * Once per test run: build a copy of the fixture content and keep its caches
 * (rendered Markdown, processed images and social cards). A test's copy of the
 * fixture content starts with them (helpers/project.ts), so the many suites that
 * only need a built site do not each render the same bodies and encode the same
 * images again. The caches are content-addressed and correctness never depends
 * on them (the render-cache and media suites test that); suites that test a
 * cold build pass `cache: false`, which ignores them.
 */
import { execFile } from 'node:child_process'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { TestProject } from 'vitest/node'
import { FIXTURE_CACHE_KEY, FIXTURE_CONTENT, REPO_ROOT } from './helpers/project.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    [FIXTURE_CACHE_KEY]: string
  }
}

/** The projects of vitest.config.ts each run the set-up (they extend the root config): one build serves them all. */
const shared = globalThis as { fixtureCacheRoot?: Promise<string> }

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.fixtureCacheRoot ??= buildFixture()
  const root = await shared.fixtureCacheRoot
  project.provide(FIXTURE_CACHE_KEY, join(root, '.cache'))
  return () => rm(root, { recursive: true, force: true })
}

async function buildFixture(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'content-api-fixture-cache-'))
  await cp(FIXTURE_CONTENT, join(root, 'content'), { recursive: true })
  // `npm run build` as an author runs it (the set-up's module runner cannot load the compiler in-process).
  // The copy has no git history: its build does without it whatever REQUIRE_HISTORY `npm test` was run
  // with (CI's is on). vitest.config.ts's `env` is the test files'; this set-up runs in vitest's own process.
  await promisify(execFile)(process.execPath, ['build/run.mjs', 'cli', 'build', '--root', root], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', REQUIRE_HISTORY: 'off' },
  })
  return root
}
