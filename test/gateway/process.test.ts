/**
 * The long-running commands as an operator runs them, through npm itself:
 * `npm run dev` on a busy port ends with a non-zero exit (not a watcher
 * waiting forever); `npm start` in a project of its own (its package.json,
 * the prebuilt commands) prints the gateway's own PID, which `kill -HUP`
 * reloads; and a SIGHUP or SIGTERM to the npm process (npm passes SIGTERM on,
 * not SIGHUP) leaves no server behind.
 */
import { spawn } from 'node:child_process'
import { copyFile, mkdir, symlink } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../helpers/project.ts'
import { answerAt, until } from '../helpers/until.ts'

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

/**
 * A project `npm start` runs in as in a clone: this repository's package.json (its scripts), its
 * dependencies, and build/run.mjs, which runs the prebuilt commands (bundled in this repository's
 * .cache/bin/) with the project as the working folder: its content/, its dist/, its runtime data.
 */
async function startableProject(): Promise<TempProject> {
  const p = await createProject({ 'content/blog-posts/hello.md': validPost('Hello') })
  await copyFile(join(REPO_ROOT, 'package.json'), join(p.root, 'package.json'))
  await symlink(join(REPO_ROOT, 'node_modules'), join(p.root, 'node_modules'))
  await mkdir(join(p.root, 'build'))
  for (const file of ['run.mjs', 'start.sh']) await symlink(join(REPO_ROOT, 'build', file), join(p.root, 'build', file))
  return p
}

/** `npm <args>` in the project, as a person types it there. */
function npm(root: string, args: string[]) {
  const child = spawn('npm', args, { cwd: root, env: { ...process.env, PORT: '0', LOG_LEVEL: 'info' } })
  let output = ''
  child.stderr.on('data', (d) => (output += d))
  child.stdout.on('data', (d) => (output += d))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return { child, exited, output: () => output }
}

/** npm and, when a test failed before seeing it stop (`gateway` still set), the gateway: no process outlives the test. */
function stop(run: ReturnType<typeof npm>, gateway: number | undefined): void {
  run.child.kill('SIGKILL')
  if (gateway !== undefined && alive(gateway)) process.kill(gateway, 'SIGKILL')
}

/** The start line's PID and address, once `npm start` has built and the gateway listens. */
async function started(run: ReturnType<typeof npm>): Promise<{ pid: number; url: string }> {
  const line = /✓ gateway \(pid (\d+)\) serving build \w+ at (http:\/\/\S+) .*kill -HUP (\d+) reloads dist\//
  await eventually(() => line.test(run.output()), 150_000, `npm start's start line (so far: ${run.output()})`)
  const [, pid, url, hup] = line.exec(run.output())!
  expect(hup).toBe(pid)
  return { pid: Number(pid), url: url! }
}

/** The gateway's `shutting down` log line in `output`. */
function shutdown(output: string): Record<string, unknown> {
  const line = output.split('\n').find((l) => l.startsWith('{') && l.includes('"msg":"shutting down"'))
  expect(line, output).toBeDefined()
  return JSON.parse(line!) as Record<string, unknown>
}

describe('npm start', () => {
  let project: TempProject
  beforeAll(async () => {
    project = await startableProject()
  })
  afterAll(() => project?.remove())

  it("prints the gateway's PID, which kill -HUP reloads after a build; a SIGHUP to npm stops the server", async () => {
    const run = npm(project.root, ['start'])
    let pid: number | undefined
    try {
      const start = await started(run)
      pid = start.pid
      const { url } = start
      expect(pid).not.toBe(run.child.pid)
      expect(alive(pid)).toBe(true)
      const buildOf = async () =>
        ((await (await fetch(`${url}/api/health`)).json()) as { build: { id: string } }).build.id
      const before = await buildOf()
      expect((await answerAt(`${url}/api/blog-posts/second`)).status).toBe(404)
      // An author's new item, built with `npm run build` beside the running gateway, then docs/operating.md's kill -HUP <pid>.
      // (--root names the project the working folder is anyway: every content command in the tests names its own.)
      await project.write('content/blog-posts/second.md', validPost('Second'))
      const build = npm(project.root, ['run', 'build', '--', '--root', project.root])
      expect((await build.exited).code, build.output()).toBe(0)
      process.kill(pid, 'SIGHUP')
      await until(() => answerAt(`${url}/api/blog-posts/second`), {
        holds: (a) => a.status === 200,
        what: 'the new item served after kill -HUP',
        timeoutMs: 30_000,
      })
      expect(await buildOf()).not.toBe(before)
      expect(alive(pid)).toBe(true)
      // What a closed terminal or `kill -HUP <npm's pid>` does: npm ends and does not pass it on.
      run.child.kill('SIGHUP')
      expect((await run.exited).signal).toBe('SIGHUP')
      await eventually(() => !alive(pid!), 30_000, 'the gateway stopping after npm')
      pid = undefined
      await expect(fetch(`${url}/api/health`)).rejects.toThrow()
      // No signal reached the gateway: it says why it stopped instead of naming one.
      const line = shutdown(run.output())
      expect(line).not.toHaveProperty('signal')
      expect(line.reason).toMatch(/^npm \(pid \d+\) has exited$/)
    } finally {
      stop(run, pid)
    }
  }, 240_000)

  it('a SIGTERM to npm stops the gateway too, leaving no server behind', async () => {
    const run = npm(project.root, ['start'])
    let pid: number | undefined
    try {
      const start = await started(run)
      pid = start.pid
      run.child.kill('SIGTERM')
      await run.exited
      await eventually(() => !alive(start.pid), 30_000, 'the gateway stopping after npm')
      pid = undefined
      await expect(fetch(`${start.url}/api/health`)).rejects.toThrow()
      // npm passed the SIGTERM on to the gateway itself, which says so.
      expect(shutdown(run.output())).toMatchObject({ level: 'info', signal: 'SIGTERM' })
    } finally {
      stop(run, pid)
    }
  }, 240_000)
})
