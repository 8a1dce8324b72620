/**
 * `npm start`'s gateway in a process of its own (`node build/run.mjs serve`,
 * from the repository root), for what only shows across processes: exit codes
 * and signals, and how clients in another process see a connection end.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { commandArgs } from './commands.ts'
import { REPO_ROOT } from './project.ts'

export interface Exit {
  code: number | null
  stderr: string
  stdout: string
}

export interface ServeProcess {
  child: ChildProcess
  exited: Promise<Exit>
  /** Where it listens, once it says so; rejects if it exits first. */
  url: Promise<string>
  /** What it printed on stderr so far. */
  stderr(): string
  /** What it printed on stdout so far (its JSON log lines). */
  stdout(): string
}

/** Run the gateway as `npm start` does, with `env` over this process's environment. */
export function serveProcess(env: Record<string, string>): ServeProcess {
  const child = spawn(process.execPath, commandArgs('serve'), {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
  })
  let stderr = ''
  let stdout = ''
  child.stderr!.on('data', (d) => (stderr += d))
  child.stdout!.on('data', (d) => (stdout += d))
  const exited = new Promise<Exit>((resolve) => child.on('exit', (code) => resolve({ code, stderr, stdout })))
  const url = new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', () => {
      const match = /at (http:\/\/\S+)/.exec(stderr)
      if (match) resolve(match[1]!)
    })
    exited.then((e) => reject(new Error(`exited ${e.code}: ${e.stderr}`)))
  })
  url.catch(() => {}) // awaited only by tests that expect the server to start
  return { child, exited, url, stderr: () => stderr, stdout: () => stdout }
}
