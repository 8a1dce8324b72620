/**
 * Running git for the build: read-only commands in the project root, without
 * a shell, pager, prompt or lock, and never an exception for a missing git or
 * a folder that is not a repository: those are answers (`ok: false` with the
 * reason), and the build goes on without history.
 */
import { execFile, spawn } from 'node:child_process'

export type GitResult = { ok: true; stdout: Buffer } | { ok: false; reason: string }

/** The environment git runs with: `root` alone decides the repository, output is plain. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }
  // A hook running the build may point these elsewhere; --root must win.
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR'])
    delete env[name]
  return env
}

const MAX_OUTPUT = 1024 * 1024 * 1024

/** Run `git <args>` in `root`. */
export function git(root: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'core.quotepath=off', ...args],
      { cwd: root, env: gitEnv(), encoding: 'buffer', maxBuffer: MAX_OUTPUT },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout })
        resolve({ ok: false, reason: reasonOf(error, stderr) })
      },
    )
  })
}

function reasonOf(error: Error & { code?: unknown }, stderr: Buffer | string): string {
  if (error.code === 'ENOENT') return 'git is not installed'
  const line = String(stderr)
    .split('\n')
    .find((l) => l.trim())
  return line ? line.trim().replace(/^fatal: /, '') : error.message.split('\n')[0]!
}

/**
 * Stream the contents of `blobs` (`git cat-file --batch`) to `onBlob`, one at
 * a time, so a long history is never held in memory whole.
 */
export function readBlobs(
  root: string,
  blobs: readonly string[],
  onBlob: (blob: string, content: Buffer) => void,
): Promise<GitResult> {
  return new Promise((resolve) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: root, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] })
    let pending: Buffer = Buffer.alloc(0)
    let stderr = ''
    let failure: string | undefined
    child.stdout.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk
      for (;;) {
        const newline = pending.indexOf(10)
        if (newline < 0) return
        const [oid, type, size] = pending.subarray(0, newline).toString('latin1').split(' ')
        if (type !== 'blob') {
          failure ??= `git cat-file: ${oid} is ${type ?? 'unreadable'}`
          pending = pending.subarray(newline + 1)
          continue
        }
        const end = newline + 1 + Number(size)
        if (pending.length < end + 1) return
        onBlob(oid!, pending.subarray(newline + 1, end))
        pending = pending.subarray(end + 1)
      }
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', (error) => resolve({ ok: false, reason: reasonOf(error, stderr) }))
    child.on('close', (code) => {
      if (code !== 0) resolve({ ok: false, reason: reasonOf(new Error(`git cat-file exited with ${code}`), stderr) })
      else resolve(failure ? { ok: false, reason: failure } : { ok: true, stdout: Buffer.alloc(0) })
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(blobs.map((b) => `${b}\n`).join(''))
  })
}
