/**
 * The long-running commands as an operator runs them, through npm itself:
 * `npm run dev` on a busy port ends with a non-zero exit (not a watcher
 * waiting forever), the start line gives the gateway's own PID (the one
 * `kill -HUP` reloads), and a SIGHUP to the npm process, which npm does not
 * pass on, leaves no server behind.
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../helpers/project.ts'
import { until } from '../helpers/until.ts'

let project: TempProject
beforeAll(async () => {
  project = await createProject({ 'content/blog-posts/hello.md': validPost('Hello') })
})
afterAll(() => project?.remove())

/** `npm run dev -- --root <project>`, as a person types it. */
function npmRunDev(env: Record<string, string>) {
  const child = spawn('npm', ['run', 'dev', '--', '--root', project.root], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  child.stdout.on('data', (d) => (stderr += d))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return { child, exited, output: () => stderr }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Wait until `condition` holds, failing after `limitMs`. */
const eventually = (condition: () => boolean, limitMs: number, what: string) =>
  until(condition, { what, timeoutMs: limitMs, everyMs: 100 })

describe('npm run dev', () => {
  it('exits non-zero with one clear line when the port is taken, instead of waiting for a code change', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
    const port = (blocker.address() as { port: number }).port
    try {
      const run = npmRunDev({ PORT: String(port) })
      const exit = await Promise.race([
        run.exited,
        new Promise<'still running'>((r) => setTimeout(() => r('still running'), 90_000)),
      ])
      if (exit === 'still running') run.child.kill('SIGINT')
      expect(exit, run.output()).not.toBe('still running')
      expect(exit).not.toMatchObject({ code: 0 })
      expect(run.output()).toContain(`✗ port ${port} on 127.0.0.1 is already in use`)
    } finally {
      blocker.close()
    }
  }, 120_000)

  it("prints the gateway's PID, and a SIGHUP to npm stops the server instead of orphaning it", async () => {
    const run = npmRunDev({ PORT: '0' })
    try {
      await eventually(() => /serves every edit at http/.test(run.output()), 90_000, 'the start line')
      const [, pid, url] = /the gateway \(pid (\d+)\) serves every edit at (http:\/\/\S+)/.exec(run.output())!
      const gateway = Number(pid)
      expect(gateway).not.toBe(run.child.pid)
      expect(alive(gateway)).toBe(true)
      expect((await fetch(`${url}/api/health`)).status).toBe(200)
      // What a closed terminal or `kill -HUP <npm's pid>` does: npm ends and does not pass it on.
      run.child.kill('SIGHUP')
      expect((await run.exited).signal).toBe('SIGHUP')
      await eventually(() => !alive(gateway), 30_000, 'the gateway stopping')
      await expect(fetch(`${url}/api/health`)).rejects.toThrow()
    } finally {
      run.child.kill('SIGKILL')
    }
  }, 150_000)
})
