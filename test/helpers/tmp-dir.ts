/**
 * The tests' temporary projects go on a memory filesystem where the machine has one (/dev/shm),
 * unless TMPDIR is set. The suite creates and deletes hundreds of thousands of files, and on ext4
 * without a journal each new file's inode search then walks the recently deleted ones, in the
 * kernel, on every build a test makes (BENCHMARKS.md's figures do not depend on it: the bench
 * keeps its own folders). One folder per run: vitest.config.ts sets it before the workers
 * and the global set-up's build start, so every process inherits it, and the set-up's teardown
 * removes it with whatever a test left behind.
 */
import { accessSync, constants, mkdirSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'

const MEMORY_FS = '/dev/shm'
const RUN_TMPDIR = join(MEMORY_FS, `content-api-tests-${process.pid}`)

/** Point TMPDIR (os.tmpdir()) at this run's folder on the memory filesystem, if there is one. */
export function useMemoryTmpDir(): void {
  if (process.env.TMPDIR) return
  try {
    accessSync(MEMORY_FS, constants.W_OK)
  } catch {
    return
  }
  mkdirSync(RUN_TMPDIR, { recursive: true })
  process.env.TMPDIR = RUN_TMPDIR
}

/** Remove this run's folder, when it was this run that made it. */
export async function removeRunTmpDir(): Promise<void> {
  if (process.env.TMPDIR === RUN_TMPDIR) await rm(RUN_TMPDIR, { recursive: true, force: true })
}
