/**
 * A self-hosted gateway with webhooks, made as `npm start` makes it
 * (createGateway with webhooks on, through the one test helper): the real
 * server over dist/ and its webhook service, subscriptions made with the real
 * keys CLI, and a project whose content/ is a git repository, so each commit
 * and build is a change in the feed. The gateway's clock is the test's, so
 * backoff and the disabling bound pass without waiting.
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { buildSite } from '../../../build/compiler/build.ts'
import { runKeysCli } from '../../../gateway/auth/keys-cli.ts'
import type { WebhookService } from '../../../gateway/webhooks/service.ts'
import { startGateway, type TestGateway } from '../../helpers/gateway.ts'
import { commitAll, initAndCommit } from '../../helpers/git.ts'
import { createProject, validPost, type TempProject } from '../../helpers/project.ts'
import type { Receiver } from './receiver.ts'

/** 2026-05-01T00:00:00Z: the first commit; later ones follow it. */
export const T0 = 1_777_593_600

export interface WebhookSite {
  project: TempProject
  gateway: TestGateway
  webhooks: WebhookService
  env: Record<string, string>
  /** The service's clock (ms); move it with `advance`. */
  clock: { now: number }
  advance(ms: number): void
  /** Log lines the service wrote (parsed JSON). */
  logs: Record<string, unknown>[]
  /** Commit what changed in content/ at `time` (seconds), build, and swap the build in (as SIGHUP does). */
  deploy(message: string, time: number): Promise<void>
  /** `npm run keys -- …` in the project; its exit code and what it printed. */
  keys(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }>
  close(): Promise<void>
}

export async function startWebhookSite(
  env: Record<string, string> = {},
  files: Record<string, string> = {},
): Promise<WebhookSite> {
  const project = await createProject({
    'content/blog-posts/first-post.md': validPost('First post'),
    // Runtime data stays out of git, as in the repository.
    '.gitignore': 'dist/\ngateway/.data/\ngateway/.keys/\n',
    ...files,
  })
  await initAndCommit(project.root, T0)
  await buildSite({ root: project.root, cache: false })
  const fullEnv = { OAUTH_STORE_DIR: join(project.root, 'gateway/.data/oauth'), ...env }
  const clock = { now: T0 * 1000 + 3_600_000 }
  const gateway = await startGateway(project.dist, {
    env: fullEnv,
    filesDir: project.root,
    stateDir: fullEnv.OAUTH_STORE_DIR,
    platform: { webhooks: true, now: () => new Date(clock.now) },
  })
  const webhooks = gateway.gateway.webhooks!
  return {
    project,
    gateway,
    webhooks,
    env: fullEnv,
    clock,
    get logs() {
      return gateway.logs.map((line) => JSON.parse(line) as Record<string, unknown>)
    },
    advance: (ms) => {
      clock.now += ms
    },
    async deploy(message, time) {
      await commitAll(project.root, message, time)
      await buildSite({ root: project.root, cache: false })
      // As SIGHUP does in serve.ts.
      await gateway.gateway.reload()
    },
    async keys(...args) {
      const out: string[] = []
      const err: string[] = []
      const code = await runKeysCli(args, {
        env: fullEnv,
        cwd: project.root,
        out: (l) => out.push(l),
        err: (l) => err.push(l),
        now: () => new Date(clock.now),
      })
      return { code, out, err }
    },
    async close() {
      await gateway.close()
      await rm(project.root, { recursive: true, force: true })
    },
  }
}

export { validPost }

/** After a pass (which starts the cursor), subscribe `receiver` to every event (`options` are more of the CLI's), giving it the secret; the subscription's id. */
export async function subscribe(site: WebhookSite, receiver: Receiver, ...options: string[]): Promise<string> {
  await site.webhooks.pass()
  const created = await site.keys('webhook', 'create', '--url', receiver.url, '--events', 'all', ...options)
  if (created.code !== 0) throw new Error(`webhook create failed: ${created.err.join('\n')}`)
  receiver.secrets.push(created.out[0]!)
  return /created (wh_[0-9a-f]{16})/.exec(created.err.join('\n'))![1]!
}

/** Run passes until `done()` holds (each pass awaited; at most `passes`). */
export async function passUntil(site: WebhookSite, done: () => boolean, passes = 20): Promise<void> {
  for (let i = 0; i < passes && !done(); i++) await site.webhooks.pass()
  if (!done()) throw new Error(`not done after ${passes} passes`)
}
