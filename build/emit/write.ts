/**
 * Write a build into a temporary folder beside dist/ and swap it in, so a
 * failed or killed build never leaves a broken or half-written dist/.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { setImmediate } from 'node:timers/promises'
import type { Worker } from 'node:worker_threads'
import type { BuildFile } from '../../contract/manifest.ts'
import { startModuleWorker } from '../core/worker.ts'
import type { WriteBatch, WriterMessage } from './write-worker.ts'

/** Bytes packed into one message to the writer thread. */
const BATCH_BYTES = 8 << 20

export async function writeDistAtomically(distDir: string, files: ReadonlyMap<string, BuildFile>): Promise<void> {
  const writer = await DistWriter.open(distDir)
  await writer.commit(files)
}

/**
 * dist/ written as the build makes it: files handed over early (`write`) go
 * to disk while the build goes on making the rest, so the disk's time
 * overlaps the processor's; `commit` writes what is still missing or
 * changed and swaps the folder in. Nothing is visible in dist/ before then.
 * The writing itself is a worker thread's (write-worker.ts): the main thread
 * only packs each batch's bytes into one buffer it hands over.
 */
export class DistWriter {
  /** The file object written at each path (or being written). */
  private readonly written = new Map<string, BuildFile>()
  /** Why the writer thread failed or stopped, once it has. */
  private stopped: string | undefined

  private constructor(
    private readonly root: string,
    private readonly distDir: string,
    private readonly tmp: string,
    private readonly worker: Worker,
  ) {
    worker.on('error', (error) => {
      this.stopped ??= error.message
    })
    worker.once('exit', (code) => {
      this.stopped ??= `the writer thread stopped (exit code ${code})`
    })
  }

  /**
   * Start the writer thread (at once: it loads while the caller goes on, a build
   * compiling its content) and make the temporary folder.
   */
  static async open(distDir: string): Promise<DistWriter> {
    // Temporary folders sit beside dist/ so the final rename stays on one filesystem.
    const root = dirname(distDir)
    const tmp = join(root, `.dist-tmp-${process.pid}-${randomBytes(4).toString('hex')}`)
    const writer = new DistWriter(root, distDir, tmp, startModuleWorker(import.meta.url, 'write-worker'))
    try {
      await recoverInterruptedSwap(root, distDir)
      await mkdir(tmp, { recursive: true })
    } catch (error) {
      await writer.worker.terminate()
      throw error
    }
    return writer
  }

  /** Start writing `files` (those not written already with the same object): their bytes are copied for the writer thread, which writes them meanwhile. */
  write(files: ReadonlyMap<string, BuildFile>): void {
    for (const batch of this.batches(files)) this.post(batch)
  }

  /** Write what `files` holds that is not on disk yet, then swap the folder in as dist/. */
  async commit(files: ReadonlyMap<string, BuildFile>): Promise<void> {
    try {
      // A batch at a time, letting events in between: the dev server hands over all of dist/ here while it serves.
      for (const batch of this.batches(files)) {
        this.post(batch)
        await setImmediate()
      }
      await this.flush()
      for (const path of this.written.keys()) if (!files.has(path)) await rm(join(this.tmp, path), { force: true })
      await swapIn(this.root, this.distDir, this.tmp)
    } catch (error) {
      await this.abort()
      throw error
    } finally {
      await this.worker.terminate()
    }
  }

  /** Drop the temporary folder (the build failed). */
  async abort(): Promise<void> {
    await this.flush().catch(() => undefined)
    await this.worker.terminate()
    await rm(this.tmp, { recursive: true, force: true })
  }

  /** The files of `files` not written already with the same object, marked written, in batches of a few megabytes. */
  private batches(files: ReadonlyMap<string, BuildFile>): [string, BuildFile][][] {
    const fresh = [...files].filter(([path, file]) => this.written.get(path) !== file)
    for (const [path, file] of fresh) this.written.set(path, file)
    const batches: [string, BuildFile][][] = []
    for (let i = 0; i < fresh.length; ) {
      let bytes = 0
      let end = i
      while (end < fresh.length && (end === i || bytes < BATCH_BYTES)) bytes += fresh[end++]![1].body.byteLength
      batches.push(fresh.slice(i, end))
      i = end
    }
    return batches
  }

  /** Hand `batch` to the writer thread, its bytes copied into one buffer it takes over. */
  private post(batch: [string, BuildFile][]): void {
    const size = batch.reduce((sum, [, file]) => sum + (file.file === undefined ? file.body.byteLength : 0), 0)
    // Never from Buffer's shared pool: the buffer is transferred, and leaves this thread.
    const buffer = Buffer.allocUnsafeSlow(size).buffer
    const bytes = Buffer.from(buffer, 0, size)
    const message: WriteBatch = { type: 'batch', paths: [], ends: [], links: [], bytes: buffer }
    let at = 0
    for (const [path, file] of batch) {
      message.paths.push(join(this.tmp, path))
      message.links.push(file.file ?? null)
      if (file.file === undefined) at += file.body.copy(bytes, at)
      message.ends.push(at)
    }
    this.worker.postMessage(message, [buffer])
  }

  /** Wait until everything handed over is on disk; throws the first failure. */
  private flush(): Promise<void> {
    return new Promise((resolve, reject) => {
      const fail = () => reject(new Error(`writing dist/: ${this.stopped}`))
      if (this.stopped) return fail()
      // A thread that ends first (it failed to start, or crashed) answers with why.
      const exited = () => void setImmediate().then(fail)
      this.worker.once('exit', exited)
      this.worker.once('message', (failure: string | null) => {
        this.worker.off('exit', exited)
        if (failure) reject(new Error(`writing dist/: ${failure}`))
        else resolve()
      })
      this.worker.postMessage({ type: 'flush' } satisfies WriterMessage)
    })
  }
}

async function swapIn(root: string, distDir: string, tmp: string): Promise<void> {
  const old = join(root, `.dist-old-${process.pid}-${randomBytes(4).toString('hex')}`)
  const hadDist = await exists(distDir)
  if (hadDist) await rename(distDir, old)
  await rename(tmp, distDir)
  if (hadDist) await rm(old, { recursive: true, force: true })
}

/** A build killed between the two renames leaves no dist/ but a `.dist-old-*`: put it back. */
async function recoverInterruptedSwap(root: string, distDir: string): Promise<void> {
  const leftovers = (await readdir(root)).filter((n) => n.startsWith('.dist-old-') || n.startsWith('.dist-tmp-'))
  if (!(await exists(distDir))) {
    const old = leftovers.find((n) => n.startsWith('.dist-old-'))
    if (old) {
      await rename(join(root, old), distDir)
      leftovers.splice(leftovers.indexOf(old), 1)
    }
  }
  // Only clear what a dead process left; another build may be writing right now.
  for (const name of leftovers) {
    if (!isAlive(Number(name.split('-')[2]))) await rm(join(root, name), { recursive: true, force: true })
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}
