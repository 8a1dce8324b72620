/**
 * Run Netlify's local emulation (test/gateway/netlify/netlify-emulator.mjs) of a built
 * project in a child process under Node 22 or later, which @netlify/dev requires
 * (helpers/supported-node.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { supportedNode } from '../../helpers/supported-node.ts'
import { REPO_ROOT } from '../../helpers/project.ts'

export interface Emulator {
  url: string
  /** NETLIFY_BLOBS_CONTEXT of the emulated Blobs, for reading and writing them from the test. */
  blobsContext: string | undefined
  /** What the emulator printed on stderr (for failure messages). */
  log(): string
  stop(): Promise<void>
}

export interface EmulatorOptions {
  timeoutMs?: number
  /**
   * false: a function is built once, not again when a file it includes changes (a test's new
   * build in dist/; see netlify-emulator.mjs). For functions that read the build from the project.
   */
  reloadFunctions?: boolean
}

export async function startEmulator(
  projectRoot: string,
  env: Record<string, string> = {},
  { timeoutMs = 120_000, reloadFunctions = true }: EmulatorOptions = {},
): Promise<Emulator> {
  const script = join(REPO_ROOT, 'test/gateway/netlify/netlify-emulator.mjs')
  const node = await supportedNode()
  const child = spawn(node.execPath, [script, projectRoot, ...(reloadFunctions ? [] : ['--no-reload'])], {
    cwd: projectRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: node.env({ NETLIFY_AUTH_TOKEN: '', NETLIFY_SITE_ID: '', LOG_LEVEL: 'silent', ...env }),
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)))
  const ready = await new Promise<{ url: string; blobsContext: string | null }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the Netlify emulation did not start in ${timeoutMs} ms:\n${stderr}`)),
      timeoutMs,
    )
    child.once('exit', (code) => reject(new Error(`the Netlify emulation exited with ${code}:\n${stderr}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return
      clearTimeout(timer)
      resolve(JSON.parse(line) as { url: string; blobsContext: string | null })
    })
  })
  // The emulation builds the functions when one is first called (copies them with their included files,
  // as node_bundler = "none" says: seconds; a minute when it traced them instead). Paid here, in the
  // suite's set-up, rather than by whichever test happens to call first.
  await fetch(`${ready.url}/api/health`).then(
    (res) => res.arrayBuffer(),
    () => undefined,
  )
  return { url: ready.url, blobsContext: ready.blobsContext ?? undefined, log: () => stderr, stop: () => stop(child) }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.stdin!.end()
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
  })
}

/** Run `work` with the emulated Blobs as the environment, as a CLI runs with a site's context. */
export async function withBlobs<T>(emulator: Emulator, work: () => Promise<T>): Promise<T> {
  const previous = process.env.NETLIFY_BLOBS_CONTEXT
  process.env.NETLIFY_BLOBS_CONTEXT = emulator.blobsContext
  try {
    return await work()
  } finally {
    if (previous === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT
    else process.env.NETLIFY_BLOBS_CONTEXT = previous
  }
}
