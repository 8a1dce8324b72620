/**
 * The CI cron's release check (build/ci/schedule-due.ts), as the workflow runs
 * it: plain Node (22 or later) on the file, against a real HTTP server on 127.0.0.1
 * standing in for the live API's /api/health. It answers due only when the
 * live build's next_release_at has passed, writes `due=` to $GITHUB_OUTPUT
 * for the deploy job, and when the health document cannot be read (nothing
 * listening, an error status, a body that is not one) says not due with a
 * warning annotation, never failing the run. Without a URL it reads api_url
 * from content/site.yaml.
 */
import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { supportedNode } from '../helpers/supported-node.ts'
import { createProject, REPO_ROOT, SITE_YAML, type TempProject } from '../helpers/project.ts'

const SCRIPT = join(REPO_ROOT, 'build/ci/schedule-due.ts')
const PAST = '2020-01-01T00:00:00Z'
const FUTURE = '2999-01-01T00:00:00Z'

/** What the stand-in health route answers next. */
let answer: { status: number; body: string } = { status: 200, body: '{}' }
let server: Server
let url: string
let project: TempProject

const health = (next: string | null) => JSON.stringify({ status: 'ok', build: { id: 'b123', next_release_at: next } })

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url !== '/api/health') {
      res.writeHead(404).end()
      return
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  project = await createProject()
})

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await project?.remove()
})

/** Run the check as the workflow does; its exit code, output and what it wrote to $GITHUB_OUTPUT. */
async function check(args: string[], cwd = REPO_ROOT): Promise<{ code: number; stdout: string; output: string }> {
  const node = await supportedNode()
  const outputFile = join(project.root, `github-output-${Math.random().toString(36).slice(2)}`)
  const env = node.env({ GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: outputFile })
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
    execFile(node.execPath, [SCRIPT, ...args], { cwd, env }, (error, out) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out }),
    ),
  )
  return { code, stdout, output: await readFile(outputFile, 'utf8').catch(() => '') }
}

describe('node build/ci/schedule-due.ts', () => {
  it('is due once the live build’s next release has passed', async () => {
    answer = { status: 200, body: health(PAST) }
    const run = await check([url])
    expect(run).toEqual({
      code: 0,
      stdout: `✓ due: build b123 is due for its release or expiry at ${PAST}\n`,
      output: 'due=true\n',
    })
  })

  it('is not due before it, nor with nothing scheduled', async () => {
    answer = { status: 200, body: health(FUTURE) }
    expect(await check([url])).toEqual({
      code: 0,
      stdout: `· not due: build b123 waits for ${FUTURE}\n`,
      output: 'due=false\n',
    })
    answer = { status: 200, body: health(null) }
    expect(await check([`${url}/`])).toEqual({
      code: 0,
      stdout: '· not due: build b123 has nothing scheduled\n',
      output: 'due=false\n',
    })
  })

  it('reads the site from content/site.yaml’s api_url when no URL is given', async () => {
    answer = { status: 200, body: health(PAST) }
    await project.write('content/site.yaml', `${SITE_YAML}api_url: ${url} # the live API\n`)
    const run = await check([], project.root)
    expect(run.stdout).toBe(`✓ due: build b123 is due for its release or expiry at ${PAST}\n`)
    expect(run.output).toBe('due=true\n')
  })

  it('says not due, with a warning, when the health document cannot be read or is not one', async () => {
    const cases: [answer: { status: number; body: string }, why: string][] = [
      [{ status: 503, body: '{}' }, `${url}/api/health answered 503: nothing to compare`],
      [{ status: 200, body: '<html>maintenance</html>' }, `${url}/api/health could not be read (`],
      [{ status: 200, body: '{"status":"ok"}' }, `${url}/api/health is not a health document`],
      [{ status: 200, body: 'null' }, `${url}/api/health is not a health document`],
      [{ status: 200, body: health('next tuesday') }, 'next_release_at "next tuesday" is not a date-time'],
    ]
    for (const [given, why] of cases) {
      answer = given
      const run = await check([url])
      expect(run.code, given.body).toBe(0)
      expect(run.output, given.body).toBe('due=false\n')
      const [line, warning] = run.stdout.trimEnd().split('\n')
      expect(line, given.body).toContain(`· not due: ${why}`)
      expect(warning, given.body).toContain(`::warning title=Scheduled publishing::${why}`)
    }
  })

  it('says not due, with a warning, when nothing answers at the URL', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
    await new Promise((resolve) => closed.close(resolve))
    const run = await check([gone])
    expect(run.code).toBe(0)
    expect(run.output).toBe('due=false\n')
    expect(run.stdout).toContain(`· not due: ${gone}/api/health could not be read (fetch failed)`)
    expect(run.stdout).toContain('::warning title=Scheduled publishing::')
  })
})
