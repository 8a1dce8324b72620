/**
 * A real Redis (Debian's redis-server, which .ci/run installs) for a test
 * file: its own port and folder, AOF persistence on with every write synced
 * (what docs/operating.md tells operators to run), so stopping it, even by
 * SIGKILL, and starting it again loses nothing that was acknowledged.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const REDIS_SERVER = '/usr/bin/redis-server'

/**
 * Whether the tests that need a real Redis run: always in CI (.ci/run installs it, so a missing
 * one fails there), elsewhere only where it is installed.
 */
export const HAVE_REDIS = existsSync(REDIS_SERVER) || Boolean(process.env.CI)

export interface RedisServer {
  /** redis://127.0.0.1:<port> (rediss://localhost with TLS, a password in it where set), for REDIS_URL. */
  url: string
  port: number
  /** Stop it (SIGKILL: no chance to save anything more than the AOF already holds). */
  stop(): Promise<void>
  /** Start it again on the same port and folder, once stopped. */
  start(): Promise<void>
  /** Stop it and remove its folder. */
  close(): Promise<void>
}

/** A port nobody listens on now (the kernel's pick, released for the server that asks for it next). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

export interface RedisOptions {
  /** requirepass: REDIS_URL then carries it (`redis://:<password>@…`). */
  password?: string
  /** Serve TLS only (REDIS_URL `rediss://localhost:…`), with this certificate and key (PEM files). */
  tls?: { cert: string; key: string }
}

export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  if (!existsSync(REDIS_SERVER))
    throw new Error(`${REDIS_SERVER} is missing: apt-get install redis-server (.ci/run installs it)`)
  const dir = await mkdtemp(join(tmpdir(), 'redis-'))
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    const started = spawn(
      REDIS_SERVER,
      [
        ...(options.tls
          ? [
              '--port',
              '0',
              '--tls-port',
              String(port),
              '--tls-cert-file',
              options.tls.cert,
              '--tls-key-file',
              options.tls.key,
              '--tls-auth-clients',
              'no',
            ]
          : ['--port', String(port)]),
        ...(options.password ? ['--requirepass', options.password] : []),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--daemonize',
        'no',
        '--logfile',
        '',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    child = started
    let output = ''
    await new Promise<void>((resolve, reject) => {
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk
        if (output.includes('Ready to accept connections')) resolve()
      })
      started.stderr!.on('data', (chunk: Buffer) => (output += chunk))
      started.once('exit', (code) => reject(new Error(`redis-server exited ${code}: ${output.slice(-2000)}`)))
    })
  }
  const stop = async () => {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGKILL')
    await exited
  }
  await start()
  return {
    url: `${options.tls ? 'rediss' : 'redis'}://${options.password ? `:${encodeURIComponent(options.password)}@` : ''}${options.tls ? 'localhost' : '127.0.0.1'}:${port}`,
    port,
    stop,
    start,
    async close() {
      await stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
