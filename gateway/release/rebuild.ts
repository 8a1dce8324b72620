/**
 * How `npm start` builds again at a release: the project's own `npm run
 * build`, in a child process, exactly as the operator would run it (the same
 * settings, the render and media caches, the atomic swap of dist/). The
 * gateway itself never loads the compiler, so it stays as small as it started.
 */
import { spawn } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { AppError } from '../../contract/errors.ts'

/** What is kept of a failed build's output for the log: its last lines. */
const MAX_OUTPUT = 4000

export class ReleaseBuildError extends AppError {
  readonly code = 'RELEASE_BUILD_FAILED'
}

/**
 * A rebuild of the project at `root` into `distDir`, or undefined (with the
 * reason) when the gateway does not serve that project's own dist/ (then the
 * operator builds and sends SIGHUP).
 */
export async function projectRebuild(
  root: string,
  distDir: string,
): Promise<{ rebuild: () => Promise<void> } | { reason: string }> {
  if (resolve(distDir) !== resolve(root, 'dist'))
    return { reason: `DIST_DIR (${distDir}) is not the dist/ of the project in ${root}` }
  const hasContent = await stat(join(root, 'content')).then(
    (s) => s.isDirectory(),
    () => false,
  )
  if (!hasContent) return { reason: `${root} has no content/ to build from` }
  return { rebuild: () => runBuild(root) }
}

function runBuild(root: string): Promise<void> {
  // Under npm (as `npm start` runs), its own CLI; elsewhere the npm on the PATH.
  const npm = process.env.npm_execpath
  const [command, args] = npm?.endsWith('.js')
    ? [process.execPath, [npm, 'run', '--silent', 'build']]
    : ['npm', ['run', '--silent', 'build']]
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env })
    let output = ''
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('error', (error) => fail(new ReleaseBuildError(`npm run build could not start: ${error.message}`)))
    child.on('close', (code) => {
      if (code === 0) return done()
      const lines = output.trim().split('\n').slice(-10).join(' | ')
      fail(new ReleaseBuildError(`npm run build exited with ${code}: ${lines}`))
    })
  })
}
