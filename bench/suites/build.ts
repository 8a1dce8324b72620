/**
 * Our build on the corpus, each run a fresh `node build/run.mjs cli build`
 * process, as `npm run build` runs it (the prebuilt commands): cold (no dist/, no cache), no-change rebuild,
 * and a forced rebuild with a warm render cache.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BUILD_NODE_ARGS, CHECK_NODE_ARGS, REPO_ROOT, RUN_COMMAND } from '../lib/paths.ts'
import { runMeasured, type ProcessResult } from '../lib/process.ts'
import { setAside } from '../lib/set-aside.ts'
import { repeat } from '../lib/stats.ts'

export interface BuildSamples {
  cold: ProcessResult[]
  noChange: ProcessResult[]
  warm: ProcessResult[]
}

/**
 * The corpora are generated or copied folders without git history: their builds and checks do
 * without it whatever REQUIRE_HISTORY the caller has (CI's is on, for the repository's content).
 */
const WITHOUT_HISTORY = { REQUIRE_HISTORY: 'off' }

export function runBuild(root: string, flags: string[] = []): Promise<ProcessResult> {
  return runMeasured(process.execPath, [...BUILD_NODE_ARGS, RUN_COMMAND, 'cli', 'build', '--root', root, ...flags], {
    cwd: REPO_ROOT,
    env: WITHOUT_HISTORY,
  })
}

/** No dist/, no .cache/ in `root`: set aside (bench/lib/set-aside.ts), not deleted. */
export async function clean(root: string): Promise<void> {
  await setAside(join(root, 'dist'))
  await setAside(join(root, '.cache'))
}

/** `runs` cold builds of `root`: no dist/, no .cache/ before each. */
export function coldBuilds(root: string, runs: number): Promise<ProcessResult[]> {
  return repeat(runs, async () => {
    await clean(root)
    return runBuild(root)
  })
}

export async function benchBuild(root: string, runs: { cold: number; short: number }): Promise<BuildSamples> {
  const cold = await coldBuilds(root, runs.cold)
  // The input hash covers the build's own code: another engineer's edit to build/
  // between runs makes a rebuild legitimate, so such a run is repeated, not counted.
  await runBuild(root)
  const noChange = await repeat(runs.short, async () => {
    for (let attempt = 0; ; attempt++) {
      const result = await runBuild(root)
      if (/up to date/.test(result.stdout)) return result
      if (attempt === 2) throw new Error(`the no-change rebuild keeps rebuilding: ${result.stdout}`)
    }
  })
  const warm = await repeat(runs.short, () => runBuild(root, ['--force']))
  return { cold, noChange, warm }
}

/**
 * `npm run check` on a copy of `content` (bench/lib/paths.ts, CONTENT_SOURCES), as a fresh
 * process each run. The first, unrecorded, bundles the commands if the code changed since
 * they were last bundled (build/run.mjs) and warms the check's cache, so no measured run pays for that.
 */
export async function benchCheck(content: string, runs: number): Promise<ProcessResult[]> {
  const root = await mkdtemp(join(tmpdir(), 'content-api-bench-check-'))
  try {
    await cp(content, join(root, 'content'), { recursive: true })
    const check = () =>
      runMeasured(process.execPath, [...CHECK_NODE_ARGS, RUN_COMMAND, 'cli', 'check', '--root', root], {
        cwd: REPO_ROOT,
        env: WITHOUT_HISTORY,
      })
    await check()
    return await repeat(runs, check)
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}
