/**
 * Write a build into a temporary folder beside dist/ and swap it in, so a
 * failed or killed build never leaves a broken or half-written dist/.
 */
import { randomBytes } from 'node:crypto'
import { copyFile, link, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { BuildFile } from '../../contract/manifest.ts'

const PARALLEL_WRITES = 64

export async function writeDistAtomically(distDir: string, files: ReadonlyMap<string, BuildFile>): Promise<void> {
  const writer = await DistWriter.open(distDir)
  await writer.commit(files)
}

/**
 * dist/ written as the build makes it: files handed over early (`write`) go
 * to disk while the build goes on making the rest, so the disk's time
 * overlaps the processor's; `commit` writes what is still missing or
 * changed and swaps the folder in. Nothing is visible in dist/ before then.
 */
export class DistWriter {
  /** The file object written at each path (or being written). */
  private readonly written = new Map<string, BuildFile>()
  private readonly dirs = new Set<string>()
  private writing: Promise<void> = Promise.resolve()

  private constructor(
    private readonly root: string,
    private readonly distDir: string,
    private readonly tmp: string,
  ) {}

  static async open(distDir: string): Promise<DistWriter> {
    // Temporary folders sit beside dist/ so the final rename stays on one filesystem.
    const root = dirname(distDir)
    await recoverInterruptedSwap(root, distDir)
    const tmp = join(root, `.dist-tmp-${process.pid}-${randomBytes(4).toString('hex')}`)
    await mkdir(tmp, { recursive: true })
    return new DistWriter(root, distDir, tmp)
  }

  /** Start writing `files` (those not written already with the same object); returns at once. */
  write(files: ReadonlyMap<string, BuildFile>): void {
    const batch = [...files].filter(([path, file]) => this.written.get(path) !== file)
    for (const [path, file] of batch) this.written.set(path, file)
    this.writing = this.writing.then(() => this.put(batch))
    // A failure surfaces at commit.
    this.writing.catch(() => undefined)
  }

  /** Write what `files` holds that is not on disk yet, then swap the folder in as dist/. */
  async commit(files: ReadonlyMap<string, BuildFile>): Promise<void> {
    try {
      this.write(files)
      await this.writing
      for (const path of this.written.keys()) if (!files.has(path)) await rm(join(this.tmp, path), { force: true })
      await swapIn(this.root, this.distDir, this.tmp)
    } catch (error) {
      await this.abort()
      throw error
    }
  }

  /** Drop the temporary folder (the build failed). */
  async abort(): Promise<void> {
    await this.writing.catch(() => undefined)
    await rm(this.tmp, { recursive: true, force: true })
  }

  private async put(batch: [string, BuildFile][]): Promise<void> {
    const dirs = [...new Set(batch.map(([path]) => dirname(join(this.tmp, path))))].filter((d) => !this.dirs.has(d))
    for (const dir of dirs.sort()) {
      await mkdir(dir, { recursive: true })
      this.dirs.add(dir)
    }
    for (let i = 0; i < batch.length; i += PARALLEL_WRITES) {
      // Every write of the batch settles before a failure is thrown: abort() must not remove the folder under them.
      const writes = batch.slice(i, i + PARALLEL_WRITES).map(([path, file]) => writeOne(join(this.tmp, path), file))
      const failed = (await Promise.allSettled(writes)).find((w) => w.status === 'rejected')
      if (failed) throw failed.reason
    }
  }
}

/** A file's bytes, or for a file kept on disk (a processed image) a hard link to it, or a copy across file systems. */
async function writeOne(path: string, file: BuildFile): Promise<void> {
  if (file.file === undefined) return writeFile(path, file.body)
  await link(file.file, path).catch(() => copyFile(file.file!, path))
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
