/**
 * The container image and compose.yaml, where no Docker runs (these
 * machines): the Dockerfile linted (dockerfilelint; hadolint too where it is
 * installed); its CMD the command the cluster tests start every gateway with
 * (GATEWAY_COMMAND); its HEALTHCHECK run for real against a real gateway,
 * healthy while Redis is down (liveness, not readiness), unhealthy once the
 * gateway is gone; compose.yaml's two gateways, Redis with AOF and nginx
 * wired to each other. Where a Docker daemon answers, the image is built and
 * its gateway answers liveness.
 */
import { execFile, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { LIVENESS_PATH } from '../../contract/public-paths.ts'
import { GATEWAY_COMMAND, startCluster, type Cluster } from '../helpers/cluster.ts'
import { REPO_ROOT } from '../helpers/project.ts'
import { HAVE_REDIS } from '../helpers/redis-server.ts'
import { until } from '../helpers/until.ts'

const run = promisify(execFile)
const dockerfile = await readFile(join(REPO_ROOT, 'Dockerfile'), 'utf8')
/** The Dockerfile's instructions, continuation lines joined, comments left out. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'))
const stages = instructions
  .join('\n')
  .split(/^FROM /m)
  .slice(1)
const final = stages.at(-1)!
const exec = (line: string | undefined) => JSON.parse(line!.replace(/^\w+ (CMD )?/, '')) as string[]

describe('the Dockerfile', () => {
  it('passes dockerfilelint, and hadolint where it is installed', async () => {
    const PATH = `${join(REPO_ROOT, 'node_modules/.bin')}:${process.env.PATH}`
    await run('dockerfilelint', ['Dockerfile'], { cwd: REPO_ROOT, env: { ...process.env, PATH } })
    const hadolint = spawnSync('hadolint', ['--version'])
    if (hadolint.status === 0) await run('hadolint', ['Dockerfile'], { cwd: REPO_ROOT })
  })

  it('runs the command the tests run, as a user who is not root, on node:24-slim in two stages', () => {
    const cmd = instructions.findLast((l) => l.startsWith('CMD '))
    expect(exec(cmd)).toEqual([...GATEWAY_COMMAND])
    expect(stages.map((s) => s.split(/[\s\n]/)[0])).toEqual(['node:24-slim', 'node:24-slim'])
    expect(final).toMatch(/^USER node$/m)
    // The dev dependencies are gone from what the image copies.
    expect(stages[0]).toMatch(/npm prune --omit=dev/)
    expect(final).not.toMatch(/npm (ci|install)/)
  })

  it("copies into the image what build/run.mjs reads to find its bundle, and the build's output", () => {
    const copied = [...final.matchAll(/^COPY --from=build (?:--chown=\S+ )?(.+) \S+$/gm)].flatMap((m) =>
      m[1]!.split(' '),
    )
    for (const path of [
      'build',
      'contract',
      'gateway',
      'package-lock.json',
      'tsconfig.json',
      '.cache',
      'dist',
      'content',
    ])
      expect(copied, path).toContain(`/app/${path}`)
  })

  it('ignores what is not source, and keeps what the build stage needs', async () => {
    const ignored = (await readFile(join(REPO_ROOT, '.dockerignore'), 'utf8'))
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
    for (const path of ['node_modules', '.git', 'dist', '.cache', 'gateway/.data', 'gateway/.keys'])
      expect(ignored).toContain(path)
    for (const path of ['content', 'build', 'contract', 'gateway', 'docs', 'package.json', 'package-lock.json'])
      expect(
        ignored.some((i) => i === path || path.startsWith(`${i}/`)),
        path,
      ).toBe(false)
  })
})

describe.skipIf(!HAVE_REDIS)('the HEALTHCHECK, run against a real gateway', () => {
  let cluster: Cluster
  beforeAll(async () => {
    cluster = await startCluster({ gateways: 1, env: { LOG_LEVEL: 'warn' } })
  }, 120_000)
  afterAll(() => cluster?.close())

  const healthcheck = (port: string) => {
    const line = instructions.find((l) => l.startsWith('HEALTHCHECK '))!
    const [command, ...args] = exec(line.slice(line.indexOf('CMD ')))
    expect(command).toBe('node')
    return new Promise<number | null>((resolve) => {
      const child = execFile(process.execPath, args, { env: { ...process.env, PORT: port } })
      child.on('exit', resolve)
    })
  }

  it('checks liveness: healthy while Redis is down, unhealthy once the gateway is gone', async () => {
    expect(dockerfile).toContain(LIVENESS_PATH)
    const port = new URL(cluster.gateways[0]!.url).port
    expect(await healthcheck(port)).toBe(0)
    await cluster.redis.stop()
    try {
      // Readiness says 503 (the store is gone); liveness, and so the container, stays healthy.
      await until(async () => (await fetch(`${cluster.gateways[0]!.url}/api/health`)).status, {
        holds: (s) => s === 503,
        what: 'readiness 503 without Redis',
      })
      expect(await healthcheck(port)).toBe(0)
    } finally {
      await cluster.redis.start()
    }
    const gateway = cluster.gateways[0]!.child
    const exited = new Promise((resolve) => gateway.once('exit', resolve))
    gateway.kill('SIGTERM')
    await exited
    expect(await healthcheck(port)).toBe(1)
  })
})

describe('compose.yaml', () => {
  interface Service {
    build?: string
    image?: string
    command?: string[]
    environment?: Record<string, string>
    volumes?: string[]
    depends_on?: Record<string, unknown>
  }
  let services: Record<string, Service>
  beforeAll(async () => {
    services = (
      parse(await readFile(join(REPO_ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as {
        services: Record<string, Service>
      }
    ).services
  })

  it('runs two gateways of the image on one Redis with AOF, each needing it', () => {
    const gateways = Object.entries(services).filter(([name]) => name.startsWith('gateway-'))
    expect(gateways.map(([name]) => name)).toEqual(['gateway-1', 'gateway-2'])
    for (const [, g] of gateways) {
      expect(g).toMatchObject({
        build: '.',
        image: 'content-api',
        depends_on: { redis: { condition: 'service_healthy' } },
      })
      expect(g.environment).toMatchObject({ STATE_STORE: 'redis', TRUST_PROXY: 'x-forwarded-for' })
      expect(g.environment!.REDIS_URL).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD[^}]*\}@redis:6379\/0$/)
    }
    const redis = services.redis!.command!.join(' ')
    expect(redis).toContain('--appendonly yes')
    expect(redis).toContain('--appendfsync always')
    expect(redis).toContain('--requirepass ${REDIS_PASSWORD')
  })

  it("puts nginx in front with the generated configuration, serving the image's dist/", async () => {
    const proxy = services.proxy!
    expect(proxy.volumes).toContain('./deploy/nginx/content-api.conf:/etc/nginx/conf.d/default.conf:ro')
    expect(proxy.volumes).toContain('dist:/srv/dist:ro')
    expect(services.dist!.volumes).toContain('dist:/srv/dist')
    expect(services.dist!.command!.join(' ')).toContain('/app/dist/.')
    const conf = await readFile(join(REPO_ROOT, 'deploy/nginx/content-api.conf'), 'utf8')
    expect([...conf.matchAll(/^\s+server (\S+);$/gm)].map((m) => m[1])).toEqual(['gateway-1:8787', 'gateway-2:8787'])
    expect(conf).toMatch(/^\s+root \/srv\/dist;$/m)
    expect(dockerfile).toMatch(/PORT=8787/)
  })
})

/** Whether a Docker daemon answers here (the client alone is not enough). */
const DOCKER = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0

describe.skipIf(!DOCKER)('docker build, where Docker runs', () => {
  const tag = `content-api-test:${process.pid}`
  afterAll(() => {
    spawnSync('docker', ['rm', '-f', `content-api-test-${process.pid}`], { stdio: 'ignore' })
    spawnSync('docker', ['rmi', '-f', tag], { stdio: 'ignore' })
  })

  it('builds the image, whose gateway answers liveness', async () => {
    expect(existsSync(join(REPO_ROOT, '.dockerignore'))).toBe(true)
    await run('docker', ['build', '-t', tag, '.'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 })
    const { stdout } = await run('docker', [
      'run',
      '-d',
      '--name',
      `content-api-test-${process.pid}`,
      '-p',
      '127.0.0.1::8787',
      // Off loopback (HOST=0.0.0.0 in the image), the gateway needs its public origin.
      '-e',
      'PUBLIC_URL=http://localhost:8787',
      tag,
    ])
    expect(stdout.trim()).toMatch(/^[0-9a-f]+$/)
    const { stdout: mapped } = await run('docker', ['port', `content-api-test-${process.pid}`, '8787'])
    const url = `http://${mapped.trim().split('\n')[0]}`
    await until(
      () =>
        fetch(`${url}${LIVENESS_PATH}`).then(
          (r) => r.status,
          () => 0,
        ),
      { holds: (s) => s === 200, what: 'the container live', timeoutMs: 120_000 },
    )
  }, 900_000)
})
