/**
 * Several gateways on several ports as a deployment runs them: each its own
 * process, started with the command the container image runs
 * (GATEWAY_COMMAND: build/start.sh's Node options, as `npm start` and the
 * bench use them; test/deploy/container.test.ts keeps the Dockerfile's CMD
 * equal to it), sharing one build, one real Redis (STATE_STORE=redis), one
 * signing key and one webhook secrets key, behind a load balancer
 * (front-proxy.ts) whose origin is their PUBLIC_URL. The keys CLI runs as an
 * operator runs it: `node build/run.mjs keys …`, a process of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { exportJWK, generateKeyPair } from 'jose'
import { SERVE_NODE_ARGS } from '../../bench/lib/paths.ts'
import { buildSite } from '../../build/compiler/build.ts'
import { generateSecretsKey } from '../../gateway/webhooks/secrets.ts'
import { startFront, type Front } from './front-proxy.ts'
import { initAndCommit } from './git.ts'
import { createProject, REPO_ROOT, validPost, type TempProject } from './project.ts'
import { startRedis, type RedisServer } from './redis-server.ts'
import { until } from './until.ts'

/** How the image starts a gateway (Dockerfile CMD), from the project's folder. */
export const GATEWAY_COMMAND = ['node', ...SERVE_NODE_ARGS, 'build/run.mjs', 'serve'] as const

/** When the fixture project's first commit is dated (seconds since the epoch). */
export const T0 = 1_777_593_600

export interface ClusterGateway {
  url: string
  child: ChildProcess
  /** Everything it printed so far (JSON log lines on stdout, then stderr). */
  log(): string
}

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

export interface Cluster {
  redis: RedisServer
  front: Front
  gateways: ClusterGateway[]
  project: TempProject
  /** The settings every gateway and CLI run gets. */
  env: Record<string, string>
  /** `node build/run.mjs keys <args>` with the cluster's settings. */
  keys(args: string[], stdin?: string): Promise<CliRun>
  close(): Promise<void>
}

export interface ClusterOptions {
  gateways: number
  /** Settings over the cluster's own (limits, say). */
  env?: Record<string, string>
  /** Settings of one gateway only (its METRICS_PORT). */
  envOf?: (index: number) => Record<string, string>
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const project = await createProject({
    'content/blog-posts/first-post.md': validPost('First post'),
    '.gitignore': 'dist/\n',
  })
  await initAndCommit(project.root, T0)
  const [redis, front] = await Promise.all([
    startRedis(),
    startFront(),
    buildSite({ root: project.root, cache: false }),
  ])
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_URL: front.url,
    DIST_DIR: project.dist,
    STATE_STORE: 'redis',
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: 'cluster:',
    OAUTH_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)),
    WEBHOOK_SECRETS_KEY: generateSecretsKey(),
    LOG_LEVEL: 'info',
    ...options.env,
  }
  const gateways = await Promise.all(
    Array.from({ length: options.gateways }, (_, i) => startOne(project.root, { ...env, ...options.envOf?.(i) })),
  )
  front.backends.push(...gateways.map((g) => g.url))
  return {
    redis,
    front,
    gateways,
    project,
    env,
    keys: (args, stdin) => runNode([join(REPO_ROOT, 'build/run.mjs'), 'keys', ...args], project.root, env, stdin),
    async close() {
      await Promise.all(gateways.map(stop))
      await front.close()
      await redis.close()
      await project.remove()
    },
  }
}

async function startOne(cwd: string, env: Record<string, string>): Promise<ClusterGateway> {
  const child = spawn(process.execPath, [...SERVE_NODE_ARGS, join(REPO_ROOT, 'build/run.mjs'), 'serve'], {
    cwd,
    env: { ...process.env, ...env },
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d) => (stdout += d))
  child.stderr!.on('data', (d) => (stderr += d))
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', () => {
      const match = /serving build \S+ at (http:\/\/\S+)/.exec(stderr)
      if (match) resolve(match[1]!)
    })
    child.once('exit', (code) => reject(new Error(`the gateway exited ${code}: ${stderr}`)))
  })
  return { url, child, log: () => `${stdout}\n${stderr}` }
}

async function stop(gateway: ClusterGateway): Promise<void> {
  const { child } = gateway
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

function runNode(args: string[], cwd: string, env: Record<string, string>, stdin?: string): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.stdin.end(stdin ?? '')
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Until every gateway's log passes `check` (they log asynchronously). */
export function allLogged(cluster: Cluster, check: (log: string) => boolean, what: string): Promise<unknown> {
  return until(() => cluster.gateways.map((g) => g.log()), {
    holds: (logs) => logs.every(check),
    what,
    show: (logs) => logs.map((l) => l.slice(-1500)).join('\n---\n'),
    everyMs: 50,
  })
}

/** Until every gateway has passed over build `buildId` (and found it sent) and nothing waits in the webhook queue. */
export async function webhooksSettled(cluster: Cluster, buildId: string): Promise<void> {
  await allLogged(
    cluster,
    (log) => new RegExp(`"build_id":"${buildId}"[^\\n]*"dispatch":"(nothing-new|queued)"`).test(log),
    'a webhook pass over the new build everywhere',
  )
  await until(() => cluster.keys(['webhook', 'list']).then((run) => run.stdout), {
    holds: (listed) => /\t0 waiting\t/.test(listed),
    what: 'an empty queue',
    everyMs: 100,
  })
}
