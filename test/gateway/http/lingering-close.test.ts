/**
 * A body over a route's limit gets its 413 problem in every try, from a
 * client busy sending it: the gateway answers before reading the body, then
 * reads and drops the rest before it closes (gateway/http/lingering-close.ts), so the
 * client is never reset mid-write (EPIPE). Node's fetch, in another process
 * than the gateway's (`npm start`'s, as users run it): only across processes
 * does the reset reach the client while it is still writing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { MCP_PATH, TOKEN_PATH } from '../../../contract/public-paths.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'
import { serveProcess, type ServeProcess } from '../../helpers/serve-process.ts'

let project: TempProject
let gateway: ServeProcess
let url: string

beforeAll(async () => {
  project = await createProject({ 'content/blog-posts/hello.md': validPost('Hello') })
  await buildSite({ root: project.root })
  gateway = serveProcess({
    PORT: '0',
    LOG_LEVEL: 'warn',
    DIST_DIR: project.dist,
    KEYS_FILE: `${project.root}/keys.json`,
    OAUTH_STORE_DIR: `${project.root}/.data`,
    MCP_MAX_BODY_BYTES: '4096',
    TOKEN_MAX_BODY_BYTES: '1024',
    RATE_LIMIT_PER_MINUTE: '0',
  })
  url = await gateway.url
}, 60_000)
afterAll(async () => {
  gateway?.child.kill('SIGTERM')
  await gateway?.exited
  await project?.remove()
})

/** What one POST of `size` bytes came to: the status and problem type, or the network error's code. */
async function send(path: string, type: string, size: number, declared: boolean): Promise<string> {
  const body = declared
    ? new Uint8Array(size)
    : new ReadableStream<Uint8Array>({
        start(controller) {
          for (let sent = 0; sent < size; sent += 16 * 1024) controller.enqueue(new Uint8Array(16 * 1024))
          controller.close()
        },
      })
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
    duplex: 'half',
  } as RequestInit).then(
    async (res) => `${res.status} ${((await res.json()) as { type: string }).type}`,
    (error: Error) => `${(error.cause as { code?: string } | undefined)?.code ?? error.message}`,
  )
}

describe('a body over the limit, from a client still sending it', () => {
  it.each([
    [MCP_PATH, 'application/json'],
    [TOKEN_PATH, 'application/x-www-form-urlencoded'],
  ])(
    "%s: Node's fetch gets the 413 problem every time (50 times with Content-Length, 50 chunked)",
    async (path, type) => {
      // Many times the cap, so the client is still writing when the 413 goes out.
      const outcomes = new Map<string, number>()
      for (let i = 0; i < 50; i++) {
        for (const declared of [true, false]) {
          const outcome = await send(path, type, 1024 * 1024, declared)
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
        }
      }
      expect(Object.fromEntries(outcomes)).toEqual({ '413 /problems/payload-too-large': 100 })
      expect((await fetch(`${url}/api/health`)).status).toBe(200)
    },
    120_000,
  )
})
