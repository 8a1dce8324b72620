/**
 * What a timed run leaves (dist/, .cache/, a peer's output, a whole corpus)
 * moved out of the way instead of deleted, and deleted when the bench is done
 * timing (`emptySetAside`, at the end of the run).
 *
 * Why: on ext4 without a journal (this host's disk: /sys/fs/ext4/vda/journal_task
 * is `<none>`), making a file skips every inode freed in the last minute or
 * more, looking each one up (fs/ext4/ialloc.c, `find_inode_bit` and
 * `recently_deleted`; journaled ext4 does not check). Deleting the last
 * build's 1,900 files just before a 1,000-item build made each of its 1,900
 * new files take ~0.5 ms to create: its writer thread spent 1.1 s instead of
 * 80 ms, and kernel time that competed with the build's own threads. The tool
 * run next paid for the same holes, so a time depended on what ran before it.
 * A rename frees no inode.
 */
import { mkdir, readdir, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The folders' names: this prefix and the pid of the run that made them. */
export const SET_ASIDE_PREFIX = '.content-api-bench-aside-'
const folder = join(tmpdir(), `${SET_ASIDE_PREFIX}${process.pid}`)
let count = 0

/** Move `path` (when it exists) out of the way; deleted by `emptySetAside`. Off the temporary folder's file system, deleted now. */
export async function setAside(path: string): Promise<void> {
  await mkdir(folder, { recursive: true })
  try {
    await rename(path, join(folder, String(count++)))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return
    if (code !== 'EXDEV') throw error
    await rm(path, { recursive: true, force: true })
  }
}

/** Delete what this run set aside: once nothing more is timed. */
export async function emptySetAside(): Promise<void> {
  await rm(folder, { recursive: true, force: true })
}

/** Delete what earlier runs set aside and could not delete (killed first); before anything is timed. */
export async function emptyStaleSetAside(): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    const pid = Number(name.slice(SET_ASIDE_PREFIX.length))
    if (name.startsWith(SET_ASIDE_PREFIX) && pid !== process.pid && !isRunning(pid))
      await rm(join(tmpdir(), name), { recursive: true, force: true })
  }
}

/** Whether process `pid` is running (EPERM: running, as another user). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
