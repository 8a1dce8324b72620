/**
 * Run a command as a child process and measure it from outside: wall time and
 * peak resident memory (GNU time's %M when installed, else polling VmHWM).
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppError } from '../../contract/errors.ts'

export interface ProcessResult {
  wallMs: number
  peakRssMb: number | undefined
  stdout: string
  stderr: string
}

export class ProcessFailed extends AppError {
  readonly code = 'BENCH_PROCESS_FAILED'
}

const GNU_TIME = '/usr/bin/time'

export interface RunOptions {
  cwd?: string
  env?: NodeJS.ProcessEnv
}

export async function runMeasured(command: string, args: string[], options: RunOptions = {}): Promise<ProcessResult> {
  const useTime = existsSync(GNU_TIME)
  const rssFile = join(tmpdir(), `bench-rss-${process.pid}-${Math.random().toString(36).slice(2)}`)
  const [cmd, argv] = useTime ? [GNU_TIME, ['-f', '%M', '-o', rssFile, command, ...args]] : [command, args]
  const started = performance.now()
  const child = spawn(cmd, argv, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d))
  child.stderr.on('data', (d: Buffer) => (stderr += d))
  let polledKb = 0
  const poll = useTime ? undefined : setInterval(() => (polledKb = Math.max(polledKb, readHwmKb(child.pid))), 20)
  const code = await new Promise<number>((done) => child.on('close', (c) => done(c ?? 1)))
  const wallMs = performance.now() - started
  if (poll) clearInterval(poll)
  let peakKb = polledKb
  if (useTime) {
    peakKb = Number((await readFile(rssFile, 'utf8').catch(() => '')).trim().split('\n').pop()) || 0
    await rm(rssFile, { force: true })
  }
  if (code !== 0)
    throw new ProcessFailed(
      `${command} ${args.join(' ')} exited with ${code}:\n${stderr.slice(-2000)}${stdout.slice(-1000)}`,
    )
  return { wallMs, peakRssMb: peakKb ? peakKb / 1024 : undefined, stdout, stderr }
}

function readHwmKb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  } catch {
    return 0
  }
}

/** Resident and peak resident memory of a running process, in MB (Linux /proc). */
export async function processMemory(pid: number): Promise<{ rssMb: number; peakMb: number } | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined)
  if (!status) return undefined
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 }
}
