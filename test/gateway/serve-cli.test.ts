import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../build/compiler/build.ts'
import { createProject, validPost, type TempProject } from '../helpers/project.ts'
import { serveProcess as serve } from '../helpers/serve-process.ts'

let project: TempProject
beforeAll(async () => {
  project = await createProject({ 'content/blog-posts/hello.md': validPost('Hello') })
  await buildSite({ root: project.root })
})
afterAll(() => project.remove())

describe('the serve command', () => {
  it('prints its URL, answers, logs JSON lines and exits 0 on SIGTERM', async () => {
    const run = serve({ PORT: '0', DIST_DIR: project.dist })
    const url = await run.url
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((await fetch(`${url}/api/health`)).status).toBe(200)
    // Its own PID, the one `kill -HUP` reloads (under npm, npm's would be another).
    expect(run.stderr()).toContain(`✓ gateway (pid ${run.child.pid}) serving build`)
    expect(run.stderr()).toContain(`kill -HUP ${run.child.pid} reloads dist/`)
    const list = await (await fetch(`${url}/api/blog-posts?limit=5`)).json()
    expect(list.data[0].title).toBe('Hello')
    run.child.kill('SIGTERM')
    const exit = await run.exited
    expect(exit.code).toBe(0)
    const lines = exit.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.find((l) => l.path === '/api/blog-posts')).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      status: 200,
      request_id: expect.any(String),
      duration_ms: expect.any(Number),
    })
  })

  it('starts on Node 22 without runtime warnings, the embedded OpenID provider loaded', async () => {
    const run = serve({ PORT: '0', DIST_DIR: project.dist, LOG_LEVEL: 'warn' })
    const url = await run.url
    expect((await fetch(`${url}/.well-known/openid-configuration`)).status).toBe(200)
    run.child.kill('SIGTERM')
    const exit = await run.exited
    expect(exit.code).toBe(0)
    // oidc-provider warned "Unsupported runtime" on Node 20.
    expect(exit.stderr.split('\n').filter((l) => l && !l.startsWith('✓ gateway'))).toEqual([])
  })

  it('exits 1 with a clear message when the port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
    const port = (blocker.address() as { port: number }).port
    try {
      const exit = await serve({ PORT: String(port), DIST_DIR: project.dist }).exited
      expect(exit.code).toBe(1)
      expect(exit.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`)
      expect(exit.stderr).not.toMatch(/\n\s+at /)
    } finally {
      blocker.close()
    }
  })

  it('exits 1 with a clear message when dist/ is missing', async () => {
    const exit = await serve({ PORT: '0', DIST_DIR: join(project.root, 'no-dist') }).exited
    expect(exit.code).toBe(1)
    expect(exit.stderr).toContain('run `npm run build` first')
  })
})
