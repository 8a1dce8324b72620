/**
 * A real nginx (Debian's, which .ci/run installs) for a test file, in a
 * folder of its own and in the foreground, with a configuration of the
 * http context (build/deploy/nginx-config.ts writes one) included as an operator's
 * conf.d/ would include it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { until } from './until.ts'

export const NGINX = '/usr/sbin/nginx'

/** Whether the tests that need nginx run: always in CI (a missing one fails there), elsewhere where it is installed. */
export const HAVE_NGINX = existsSync(NGINX) || Boolean(process.env.CI)

export interface Nginx {
  url: string
  /** Its error log so far. */
  log(): string
  close(): Promise<void>
}

/** nginx on `port` with `site` (a configuration for the http context) included. */
export async function startNginx(site: string, port: number): Promise<Nginx> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install nginx (.ci/run installs it)`)
  const dir = await mkdtemp(join(tmpdir(), 'nginx-'))
  await writeFile(join(dir, 'site.conf'), site)
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `  ${t}_temp_path ${join(dir, t)};`)
    .join('\n')
  await writeFile(
    join(dir, 'nginx.conf'),
    // As root, the workers would switch to nobody, who cannot read a test's private folders.
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
${temp}
  include ${join(dir, 'site.conf')};
}
`,
  )
  let stderr = ''
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  child.stderr!.on('data', (d) => (stderr += d))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const url = `http://127.0.0.1:${port}`
  await until(
    () =>
      child.exitCode !== null
        ? Promise.reject(new Error(`nginx exited ${child.exitCode}: ${stderr}`))
        : fetch(`${url}/`).then(
            () => true,
            () => false,
          ),
    { holds: (up) => up, what: 'nginx listening' },
  )
  return {
    url,
    log: () => stderr,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        // QUIT: a graceful stop of nginx and its worker.
        child.kill('SIGQUIT')
        await exited
      }
      await rm(dir, { recursive: true, force: true })
    },
  }
}
