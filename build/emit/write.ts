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
  // Temporary folders sit beside dist/ so the final rename stays on one filesystem.
  const root = dirname(distDir)
  await recoverInterruptedSwap(root, distDir)
  const tmp = join(root, `.dist-tmp-${process.pid}-${randomBytes(4).toString('hex')}`)
  try {
    const paths = [...files.keys()].sort()
    const dirs = new Set(paths.map((p) => dirname(join(tmp, p))))
    for (const dir of [...dirs].sort()) await mkdir(dir, { recursive: true })
    for (let i = 0; i < paths.length; i += PARALLEL_WRITES) {
      await Promise.all(paths.slice(i, i + PARALLEL_WRITES).map((p) => writeOne(join(tmp, p), files.get(p)!)))
    }
    await swapIn(root, distDir, tmp)
  } catch (error) {
    await rm(tmp, { recursive: true, force: true })
    throw error
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
