/**
 * The `npm start` process itself (gateway/serve.ts): once it swaps in a new
 * build on SIGHUP, the build's changes go out as signed webhooks, with no
 * other help; a second SIGHUP over the same build sends nothing more.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { generateSecretsKey } from '../../../gateway/webhooks/secrets.ts'
import { commitAll, initAndCommit } from '../../helpers/git.ts'
import { createProject, REPO_ROOT, validPost, type TempProject } from '../../helpers/project.ts'
import { startReceiver, type Receiver } from './receiver.ts'

const T0 = 1_777_593_600
let project: TempProject
let receiver: Receiver
let child: ChildProcess
let stdout = ''
let env: Record<string, string>

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 240 && !check(); i++) await new Promise((r) => setTimeout(r, 250))
  if (!check()) throw new Error(`${what}; the gateway logged:\n${stdout}`)
}

beforeAll(async () => {
  project = await createProject({
    'content/blog-posts/first-post.md': validPost('First post'),
    '.gitignore': 'dist/\n.data/\n',
  })
  await initAndCommit(project.root, T0)
  await buildSite({ root: project.root, cache: false })
  receiver = await startReceiver()
  env = {
    OAUTH_STORE_DIR: join(project.root, '.data'),
    WEBHOOK_SECRETS_KEY: generateSecretsKey(),
    DIST_DIR: project.dist,
    PORT: '0',
    LOG_LEVEL: 'info',
  }
  const out: string[] = []
  const code = await runKeysCli(['webhook', 'create', '--url', receiver.url, '--events', 'all'], {
    env,
    cwd: project.root,
    out: (l) => out.push(l),
    err: () => {},
  })
  expect(code).toBe(0)
  receiver.secrets.push(out[0]!)
  child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'gateway/serve.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  })
  child.stdout!.on('data', (d) => (stdout += d))
  child.stderr!.on('data', (d) => (stdout += d))
  await until(() => stdout.includes('changes after this build will be sent'), 'the gateway did not start its cursor')
}, 120_000)

afterAll(async () => {
  child?.kill('SIGTERM')
  await receiver?.close()
  await project?.remove()
})

describe('npm start', () => {
  it('sends the changes of a build it swaps in on SIGHUP, once', async () => {
    await project.write('content/blog-posts/hup.md', validPost('Hup'))
    await commitAll(project.root, 'hup', T0 + 100)
    await buildSite({ root: project.root, cache: false })
    child.kill('SIGHUP')
    await until(() => receiver.events.length === 1, 'no event after SIGHUP')
    expect(receiver.events[0]).toMatchObject({ type: 'content.published', data: { slug: 'hup' } })
    expect(stdout).toContain('"msg":"webhooks: events queued"')

    // The same build again: its changes are behind the cursor (the in-process tests check this pass by pass).
    child.kill('SIGHUP')
    await until(() => (stdout.match(/"msg":"reloaded"/g) ?? []).length === 2, 'no second reload')
    expect(stdout.match(/"msg":"webhooks: events queued"/g)).toHaveLength(1)
  }, 120_000)
})
