/**
 * The end shared by the long-running commands (`npm start`, `npm run dev`):
 * a graceful close on SIGTERM/SIGINT, and on the end of the npm process that
 * started them. npm passes SIGINT and SIGTERM on to its script but not SIGHUP:
 * `kill -HUP <npm's pid>` (or a closed terminal) ends npm alone and would leave
 * the server running with no one to stop it. npm passes a signal to the shell
 * that runs its script, which ends without passing it on: `npm start` execs
 * the gateway after its build (package.json), so that the gateway is that
 * process and gets the signal itself. How they fail is contract/cli.ts.
 */
import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { AppError } from '../contract/errors.ts'
import type { CliResult } from '../contract/cli.ts'
import type { Settings } from '../contract/settings.ts'

/** How often the npm process that started this one is looked for. */
const WRAPPER_CHECK_MS = 1000

/** The command line of a watcher that restarts this process on code changes. */
const WATCHER = /\brun\.mjs\s+--watch\b|\btsx\b.*\bwatch\b/

/** Why a command stops: the signal it received, or, with none to name, what happened instead. */
export type StopCause = { signal: 'SIGTERM' | 'SIGINT' } | { reason: string }

/**
 * On SIGTERM or SIGINT, or when the npm that started this process is gone
 * (npm_lifecycle_event says npm ran it), run `close` once, then exit 0.
 */
export function closeOnSignals(
  close: (cause: StopCause) => Promise<void>,
  settings: Pick<Settings, 'npm_lifecycle_event'>,
): void {
  let closing = false
  const stop = (cause: StopCause) => {
    if (closing) return
    closing = true
    void close(cause).then(() => process.exit(0))
  }
  process.once('SIGTERM', () => stop({ signal: 'SIGTERM' }))
  process.once('SIGINT', () => stop({ signal: 'SIGINT' }))
  const chain = settings.npm_lifecycle_event === undefined ? undefined : npmChain()
  if (!chain) return
  const timer = setInterval(() => {
    if (!chain.npmAlive()) {
      clearInterval(timer)
      console.error(`! npm (pid ${chain.npm}) has exited: stopping (pid ${process.pid})`)
      // The processes npm started in between (its shell, a watcher) would stay behind too.
      for (const pid of chain.between) signal(pid, 'SIGTERM')
      // Whatever ended npm (a SIGHUP it does not pass on, say) never reached this process: no signal to name.
      stop({ reason: `npm (pid ${chain.npm}) has exited` })
    }
  }, WRAPPER_CHECK_MS)
  timer.unref()
}

/**
 * `npm run dev` runs under a watcher (`build/run.mjs --watch`, or `tsx watch`
 * from the sources), which waits for a code change after its process ends. A
 * start that fails for the operator's reason (a busy port, a bad setting: an
 * AppError or a system error, not a bug in the code being edited) ends the
 * watcher too, so the command exits non-zero.
 */
export function endWatchIfStartFails(main: () => Promise<CliResult>): () => Promise<CliResult> {
  return async () => {
    try {
      return await main()
    } catch (error) {
      const operators = error instanceof AppError || typeof (error as NodeJS.ErrnoException).syscall === 'string'
      const parent = process.ppid
      if (operators && WATCHER.test(commandOf(parent) ?? ''))
        // At exit, once the code is set: the watcher then exits with it (or 143) instead of waiting.
        process.once('exit', (code) => code !== 0 && signal(parent, 'SIGTERM'))
      throw error
    }
  }
}

interface NpmChain {
  npm: number
  /** The processes from this one's parent up to (not including) npm. */
  between: number[]
  npmAlive(): boolean
}

/** The npm process that ran this one's script, when the system can say. */
function npmChain(): NpmChain | undefined {
  const between: number[] = []
  let pid = process.ppid
  for (let depth = 0; depth < 8 && pid > 1; depth++) {
    const command = commandOf(pid)
    if (command === undefined) return undefined
    if (/(^|[\s/])npm(-cli\.js)?(\s|$)/.test(command)) {
      const npm = pid
      // The process npm started: reparented (to init or a subreaper) once npm is gone, even before npm is reaped.
      const child = between.at(-1) ?? process.pid
      return { npm, between, npmAlive: () => parentOf(child) === npm }
    }
    between.push(pid)
    const parent = parentOf(pid)
    if (parent === undefined) return undefined
    pid = parent
  }
  return undefined
}

function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
  } catch {
    return ps(pid, 'args')
  }
}

function parentOf(pid: number): number | undefined {
  if (pid === process.pid) return process.ppid
  try {
    // Field 4 of /proc/<pid>/stat, after the command in parentheses (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    const ppid = ps(pid, 'ppid')
    return ppid === undefined || ppid === '' ? undefined : Number(ppid)
  }
}

/** `ps -o <field>= -p <pid>` where there is no /proc (macOS); undefined when the process or ps is not there. */
function ps(pid: number, field: 'args' | 'ppid'): string | undefined {
  try {
    return execFileSync('ps', ['-o', `${field}=`, '-p', String(pid)], { encoding: 'utf8', stdio: 'pipe' }).trim()
  } catch {
    return undefined
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name)
  } catch {
    // Already gone.
  }
}
