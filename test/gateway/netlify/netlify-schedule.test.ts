/**
 * Scheduled publishing on Netlify, under Netlify's own local emulation with
 * emulated Blobs: the scheduled function `publish-scheduled`, called as
 * Netlify calls it, reads the deployed build's manifest and calls the build
 * hook (NETLIFY_BUILD_HOOK_URL, here a local receiver) only once the next
 * release time has passed, and only once for that build and time. Each call
 * is a fresh function instance: what it remembers went through Blobs.
 */
import { copyFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { exportJWK, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { bundledFunctions } from './functions.ts'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../../helpers/project.ts'
import { startEmulator, type Emulator } from './emulator.ts'

let project: TempProject
let netlify: Emulator
let hook: Server
/** What the build hook received: method and URL of each call. */
const calls: string[] = []

const post = (title: string, at: string) => validPost(title).replace('published_at: 2026-01-05', `published_at: ${at}`)

/** Build as of `clock`, as the deploy being served. */
const deploy = (clock: string) =>
  buildSite({ root: project.root, cache: false, force: true, clock: () => Date.parse(clock) })

/** One run, as Netlify's scheduler makes it (the first after a deploy waits while the emulation builds the functions). */
const scheduledRun = async () => {
  const response = await fetch(`${netlify.url}/.netlify/functions/publish-scheduled`, { method: 'POST' }).catch(
    (error: Error) => {
      throw new Error(`${error.message} (${error.cause})\n${netlify.log()}`)
    },
  )
  const body = await response.text()
  expect(response.status, `${body}\n${netlify.log()}`).toBeLessThan(300)
}

beforeAll(async () => {
  hook = createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`)
    req.resume()
    res.writeHead(200).end()
  })
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve))
  project = await createProject({
    'content/blog-posts/live.md': validPost('Live'),
    'content/blog-posts/launch.md': post('Launch', '2026-06-01T09:00:00Z'),
    '.gitignore': 'dist/\nnetlify-functions/\n.netlify/\n.cache/\n',
  })
  // The first deploy: the launch is months away, as of its build and by the function's clock alike.
  await project.write('content/blog-posts/launch.md', post('Launch', '2099-06-01T09:00:00Z'))
  await deploy('2026-02-01T00:00:00Z')
  await bundledFunctions(project.root)
  await copyFile(join(REPO_ROOT, 'netlify.toml'), join(project.root, 'netlify.toml'))
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  // Each function is built once, as a deploy's are: it reads each new build's manifest from the project
  // (DIST_DIR), so the emulation's rebuild on a new dist/ (during which a call found no entry point) is not needed.
  netlify = await startEmulator(
    project.root,
    {
      NETLIFY_BUILD_HOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/build_hooks/5f0c1a`,
      OAUTH_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)),
    },
    { reloadFunctions: false },
  )
}, 300_000)

afterAll(async () => {
  await netlify?.stop()
  await new Promise((resolve) => hook?.close(resolve))
  await project?.remove()
})

describe('publish-scheduled on Netlify', () => {
  it('calls the build hook only once the deployed build’s next release has passed, once for that build', async () => {
    await scheduledRun()
    expect(calls).toEqual([])

    // A deploy built before the launch, whose release time has now passed.
    await project.write('content/blog-posts/launch.md', post('Launch', '2026-06-01T09:00:00Z'))
    const report = await deploy('2026-02-01T00:00:00Z')
    expect(report.manifest.build.next_release_at).toBe('2026-06-01T09:00:00Z')
    await scheduledRun()
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatch(/^POST \/build_hooks\/5f0c1a\?trigger_title=Scheduled\+release/)

    // The next minutes, while Netlify builds: no second call for the same build and time.
    await scheduledRun()
    await scheduledRun()
    expect(calls).toHaveLength(1)
  }, 900_000)
})
