/**
 * `npm run dev` started on content with errors and no earlier build: health
 * says what is wrong with the content and where (not "run npm run build",
 * which would not help), the request log names the reason, and the first
 * save that fixes the content is served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDev, type DevServer } from '../../gateway/dev-server.ts'
import { createLogger } from '../../gateway/log.ts'
import { createProject, validPost, type TempProject } from '../helpers/project.ts'
import { until } from '../helpers/until.ts'

const BROKEN = validPost('Broken').replace('published_at: 2026-01-05', 'published_at: 2026-02-30')

describe('npm run dev with content errors at start', () => {
  let project: TempProject
  let dev: DevServer
  const logs: string[] = []
  const health = async () => {
    const response = await fetch(`${dev.url}/api/health`)
    return { status: response.status, body: (await response.json()) as { detail?: string; status?: string } }
  }

  beforeAll(async () => {
    project = await createProject({ 'content/blog-posts/broken.md': BROKEN })
    dev = await startDev({
      root: project.root,
      port: 0,
      settleMs: 50,
      print: () => {},
      platform: { logger: createLogger('debug', (line) => logs.push(line)) },
    })
  })
  afterAll(async () => {
    await dev?.close()
    await project?.remove()
  })

  it('answers health with the content errors, names them in the log, and serves the fix', async () => {
    const { status, body } = await health()
    expect(status).toBe(503)
    expect(body.detail).toBe(
      '1 content error in content/blog-posts/broken.md: nothing is served until it is fixed (each error: the terminal, or /preview/)',
    )
    expect(body.detail).not.toContain(project.root)
    const failed = logs
      .map((l) => JSON.parse(l) as { msg: string; error?: string })
      .filter((l) => l.msg === 'request failed')
    expect(failed.length).toBeGreaterThan(0)
    for (const line of failed) expect(line.error).not.toContain('[object Object]')

    await project.write('content/blog-posts/broken.md', validPost('Fixed'))
    await until(health, { holds: (h) => h.status === 200, what: 'health after the fix' })
  })
})
