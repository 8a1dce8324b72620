/**
 * How `npm start` builds again at a release: `npm run build -- --root
 * <project>`, in a child process, exactly as the operator would run it (the
 * same settings, the render and media caches, the atomic swap of dist/), with
 * the gateway's own origin as PUBLIC_URL, so its records name where they are
 * served, as those of `npm start`'s own build do (contract/api-origin.ts). The
 * project is the one whose dist/ the gateway serves (DIST_DIR, by default
 * `dist` in the folder npm start runs in). The gateway itself never loads the
 * compiler, so it stays as small as it started.
 */
import { spawn } from 'node:child_process'
import { readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { AppError } from '../../contract/errors.ts'

/** What is kept of a failed build's output for the log: its last lines. */
const MAX_OUTPUT = 4000

export class ScheduledBuildError extends AppError {
  readonly code = 'RELEASE_BUILD_FAILED'
}

/**
 * A rebuild of the project whose dist/ is `distDir` by the package in
 * `packageRoot` (its `build` script), or the reason there is none: the
 * gateway serves a dist/ of no project here (then the operator builds and
 * sends SIGHUP).
 */
export async function projectRebuild(
  distDir: string,
  packageRoot: string,
  origin: () => string,
): Promise<{ rebuild: () => Promise<void> } | { reason: string }> {
  const root = dirname(resolve(distDir))
  const hasContent = await stat(join(root, 'content')).then(
    (s) => s.isDirectory(),
    () => false,
  )
  if (basename(resolve(distDir)) !== 'dist' || !hasContent)
    return { reason: `DIST_DIR (${distDir}) is not the dist/ of a project with content/` }
  const scripts = await readFile(join(packageRoot, 'package.json'), 'utf8').then(
    (text) => (JSON.parse(text) as { scripts?: Record<string, string> }).scripts,
    () => undefined,
  )
  if (!scripts?.build) return { reason: `${packageRoot} has no package.json with a build script` }
  return { rebuild: () => runBuild(root, packageRoot, origin()) }
}

function runBuild(root: string, packageRoot: string, origin: string): Promise<void> {
  // Under npm (as `npm start` runs), its own CLI; elsewhere the npm on the PATH.
  const npm = process.env.npm_execpath
  const build = ['run', '--silent', 'build', '--', '--root', root]
  const [command, args] = npm?.endsWith('npm-cli.js') ? [process.execPath, [npm, ...build]] : ['npm', build]
  return new Promise((done, fail) => {
    const env = { ...process.env, PUBLIC_URL: origin }
    const child = spawn(command, args, { cwd: packageRoot, stdio: ['ignore', 'pipe', 'pipe'], env })
    let output = ''
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('error', (error) => fail(new ScheduledBuildError(`npm run build could not start: ${error.message}`)))
    child.on('close', (code) => {
      if (code === 0) return done()
      const lines = output.trim().split('\n').slice(-10).join(' | ')
      fail(new ScheduledBuildError(`npm run build exited with ${code}: ${lines}`))
    })
  })
}
