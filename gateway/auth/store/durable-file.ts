/**
 * The file system under the files store and the runtime-data files: whole
 * files written so that a reader never sees half of one and a write that
 * returned survives a crash or a power loss, and a lock per file for
 * read-modify-write across processes (the keys CLI beside any number of
 * gateways).
 *
 * - write-file-atomic writes a temporary file beside the target, fsyncs it
 *   and renames it over the target; on any failure the temporary file is
 *   removed. The folder is fsynced after the rename (and new folders' own
 *   entries), so the rename itself is on disk before the write answers.
 * - proper-lockfile takes a lock by making a folder (`<file>.lock`, atomic on
 *   every local file system) and keeps it fresh while held; a lock left by a
 *   process that died is stale after LOCK_STALE_MS and taken over.
 */
import { randomBytes } from 'node:crypto'
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import { lock } from 'proper-lockfile'
import writeFileAtomic from 'write-file-atomic'

/** A lock not refreshed for this long was left by a process that died. */
const LOCK_STALE_MS = 10_000
/** How long a writer waits for a lock: past a stale one's takeover. */
const LOCK_WAIT_MS = 20_000
/** What a lock folder is called: never a record's or a folder's name (those escape dots). */
export const LOCK_SUFFIX = '.lock'

/** The file's text, or undefined when there is none. */
export async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** Replace the file's content with `text` (owner-only), durably: on disk when this returns. */
export async function writeDurably(path: string, text: string): Promise<void> {
  const folder = dirname(path)
  await ensureFolder(folder)
  await writeFileAtomic(path, text, { mode: 0o600, fsync: true })
  await syncFolder(folder)
}

/**
 * Make the file with `text` (owner-only) unless it exists, durably; true when this call made it.
 * The text is written and fsynced under a temporary name first, then linked to `path` (which fails
 * when the name is taken), so a reader or a racing creator never sees an empty or half-written
 * file, and a crash leaves either the whole file or none.
 *
 * @example
 * if (!(await createDurably(file, secret))) secret = (await readText(file))!.trim()
 */
export async function createDurably(path: string, text: string): Promise<boolean> {
  const folder = dirname(path)
  await ensureFolder(folder)
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
  const handle = await open(temporary, 'wx', 0o600)
  try {
    await handle.writeFile(text)
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await link(temporary, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    await unlink(temporary).catch(() => undefined)
    await syncFolder(folder)
  }
}

/** Make `folder` (owner-only) if it is missing, with its entry in the folder above on disk. */
export async function ensureFolder(folder: string): Promise<void> {
  const first = await mkdir(folder, { recursive: true, mode: 0o700 })
  if (first === undefined) return
  // From the deepest folder made up to the first: each one's entry lives in the folder above it.
  for (let made = folder; ; made = dirname(made)) {
    await syncFolder(dirname(made))
    if (made === first || dirname(made) === made) break
  }
}

/** fsync a folder, so the names made, renamed or removed in it are on disk. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r')
  try {
    await handle.sync()
  } catch (error) {
    // Some file systems cannot fsync a folder (and need not): not a failed write.
    if (!['EINVAL', 'ENOTSUP', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error
  } finally {
    await handle.close()
  }
}

/**
 * Run `work` holding the lock of `path`, which need not exist. Of the writers of one file, one
 * at a time, in every process: this process's wait their turn in a queue (no polling among
 * them), others' poll the lock (ELOCKED after LOCK_WAIT_MS). A lock lost while held (the process
 * stalled past LOCK_STALE_MS and another took it) fails the work: what it wrote may have raced
 * another writer, so it is not reported done.
 */
export async function withFileLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(path)
  let done!: () => void
  const turn = new Promise<void>((resolve) => (done = resolve))
  const tail = before ? before.then(() => turn) : turn
  queues.set(path, tail)
  try {
    await before
    return await holding(path, work)
  } finally {
    done()
    if (queues.get(path) === tail) queues.delete(path)
  }
}

/** This process's writers of each file, in turn: the last one's turn ends when it does. */
const queues = new Map<string, Promise<void>>()

async function holding<T>(path: string, work: () => Promise<T>): Promise<T> {
  await ensureFolder(dirname(path))
  let lost: Error | undefined
  const release = await acquire(path, (error) => (lost = error))
  try {
    const value = await work()
    if (lost) throw lost
    return value
  } finally {
    await release().catch(() => undefined)
  }
}

async function acquire(path: string, onLost: (error: Error) => void): Promise<() => Promise<void>> {
  const started = Date.now()
  for (let attempt = 0; ; attempt++) {
    try {
      return await lock(path, {
        realpath: false,
        lockfilePath: `${path}${LOCK_SUFFIX}`,
        stale: LOCK_STALE_MS,
        onCompromised: onLost,
      })
    } catch (error) {
      // Only a lock held by another is waited for (proper-lockfile's own retries would retry a full disk too).
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() - started > LOCK_WAIT_MS) throw error
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20, 2 ** attempt)))
    }
  }
}
