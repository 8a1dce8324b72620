/**
 * The peers on the same generated content/: Hugo (JSON per page and per
 * section, bench/peers/hugo) and Velite (bench/peers/velite), each a cold
 * build from an empty output folder.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { BIN, REPO_ROOT } from '../lib/paths.ts'
import { runMeasured, type ProcessResult } from '../lib/process.ts'
import { setAside } from '../lib/set-aside.ts'
import { repeat } from '../lib/stats.ts'

const run = promisify(execFile)

export const HUGO_SITE = join(REPO_ROOT, 'bench', 'peers', 'hugo')
export const VELITE_CONFIG = join(REPO_ROOT, 'bench', 'peers', 'velite', 'velite.config.ts')

async function hasHugo(): Promise<boolean> {
  return run('hugo', ['version']).then(
    () => true,
    () => false,
  )
}

/**
 * Hugo from Debian. When missing and we may, install it with apt-get (root
 * only) and say so; otherwise the Hugo row is reported as skipped.
 */
export async function ensureHugo(allowInstall: boolean, say: (line: string) => void): Promise<string | undefined> {
  if (await hasHugo()) return undefined
  if (!allowInstall || process.getuid?.() !== 0) return 'hugo is not installed (apt-get install hugo)'
  say('hugo is missing: installing the Debian package with apt-get (once)…')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  try {
    await run('apt-get', ['update', '-qq'], { env })
    await run('apt-get', ['install', '-y', '-qq', '-o', 'DPkg::Lock::Timeout=300', 'hugo'], { env })
  } catch (error) {
    return `installing hugo failed: ${(error as Error).message.split('\n')[0]}`
  }
  return (await hasHugo()) ? undefined : 'hugo could not be installed'
}

export function benchHugo(root: string, runs: number): Promise<ProcessResult[]> {
  const out = join(root, 'peer-hugo')
  return repeat(runs, async () => {
    await setAside(out)
    return runMeasured(
      'hugo',
      [
        '--source',
        HUGO_SITE,
        '--contentDir',
        join(root, 'content'),
        '--destination',
        join(out, 'public'),
        '--cacheDir',
        join(out, 'cache'),
        '--noBuildLock',
        '--quiet',
      ],
      { env: { HUGO_RESOURCEDIR: join(out, 'resources') } },
    )
  })
}

export function benchVelite(root: string, runs: number): Promise<ProcessResult[]> {
  const out = join(root, 'peer-velite')
  return repeat(runs, async () => {
    await setAside(out)
    return runMeasured(process.execPath, [BIN.velite, 'build', '--config', VELITE_CONFIG], {
      cwd: REPO_ROOT,
      env: { BENCH_CONTENT: join(root, 'content'), BENCH_VELITE_OUT: out },
    })
  })
}
