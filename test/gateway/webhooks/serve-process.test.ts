/**
 * The `npm start` process itself (gateway/serve.ts): once it swaps in a new
 * build on SIGHUP, the build's changes go out as signed webhooks, with no
 * other help; a second SIGHUP over the same build sends nothing more.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../build/compiler/build.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import { generateSecretsKey } from '../../../gateway/webhooks/secrets.ts'
import { commitAll, initAndCommit } from '../../helpers/git.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'
import { serveProcess, type ServeProcess } from '../../helpers/serve-process.ts'
import { until } from '../../helpers/until.ts'
import { startReceiver, type Receiver } from './receiver.ts'

const T0 = 1_777_593_600
let project: TempProject
let receiver: Receiver
let gateway: ServeProcess
let env: Record<string, string>

/** Until the gateway's log (what it printed, stdout and stderr) passes `check`. */
const logged = (check: (log: string) => boolean, what: string) =>
  until(() => gateway.stdout() + gateway.stderr(), {
    holds: check,
    what,
    show: (log) => log,
    everyMs: 250,
    timeoutMs: 60_000,
  })

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
  gateway = serveProcess(env)
  await logged((log) => log.includes('changes after this build will be sent'), 'the gateway starting its cursor')
}, 120_000)

afterAll(async () => {
  gateway?.child.kill('SIGTERM')
  await receiver?.close()
  await project?.remove()
})

describe('npm start', () => {
  it('sends the changes of a build it swaps in on SIGHUP, once', async () => {
    await project.write('content/blog-posts/hup.md', validPost('Hup'))
    await commitAll(project.root, 'hup', T0 + 100)
    await buildSite({ root: project.root, cache: false })
    gateway.child.kill('SIGHUP')
    await until(() => receiver.events.length, {
      holds: (n) => n === 1,
      what: 'an event after SIGHUP',
      timeoutMs: 60_000,
    })
    expect(receiver.events[0]).toMatchObject({ type: 'content.published', data: { slug: 'hup' } })
    // The process logs asynchronously: its line may reach the pipe after the receiver got the event.
    await logged((log) => log.includes('"msg":"webhooks: events queued"'), 'the queued events in the log')

    // The same build again: its changes are behind the cursor (the in-process tests check this pass by pass).
    gateway.child.kill('SIGHUP')
    await logged((log) => (log.match(/"msg":"reloaded"/g) ?? []).length === 2, 'a second reload')
    expect(gateway.stdout().match(/"msg":"webhooks: events queued"/g)).toHaveLength(1)
  }, 120_000)
})
