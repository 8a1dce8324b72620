/**
 * Run node with the tsx loader from the repository root, as the npm scripts
 * do, and collect what it printed and how it exited.
 */
import { spawn } from 'node:child_process'
import { REPO_ROOT } from './project.ts'

export interface TsxRun {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * `node --import tsx <args…>` with `env` over this process's environment
 * (`undefined` removes a variable); `started` gets the process id.
 */
export function runTsx(
  args: string[],
  env: Record<string, string | undefined> = {},
  started?: (pid: number) => void,
): Promise<TsxRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
    })
    if (child.pid !== undefined) started?.(child.pid)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    // 'close', not 'exit': a process may end before all it printed has been read.
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
