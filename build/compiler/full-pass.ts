/**
 * The watch mode's full pass on a worker thread. At 10,000 items the
 * whole-content outputs (llms-full.txt, feeds, the change feed, the search
 * index, the manifest) take seconds of CPU; on the dev server's thread they
 * would hold every request and every edit that arrives meanwhile. So a second
 * Compiler, in a worker, follows the same files (it is told which paths
 * changed and reads them itself) and runs `emit('full')`; the dev server
 * adopts its whole-content files only when that compiler's content is its own
 * (same build id: `Compiler.adoptFull`), so the bytes are a full build's.
 *
 * A pass carries only the files that differ from the last pass the dev
 * server adopted (it says which in each request): the others, the editor's
 * scripts, the documents and most feeds, go as their ETag alone (`Unchanged`), and
 * the dev server keeps its own copies. Each adoption used to copy every
 * whole-content file across (the editor's script among them), holding the
 * dev server's thread, and an edit arriving then, with the garbage
 * collection that followed; after a title edit the pass now carries only
 * what a title changes (llms-full.txt, the search index, the editor's
 * configuration).
 */
import type { BuildFile } from '../../contract/manifest.ts'
import { startModuleWorker } from '../core/worker.ts'
import type { ContentPath } from '../core/sources.ts'
import type { ApiOrigin } from '../../contract/api-origin.ts'

/**
 * Below this many files the full pass is too short to be worth a second
 * compiler. From here on it takes long enough (in emitters that cannot stop
 * halfway) that an edit arriving during it would wait noticeably on the dev
 * server's thread.
 */
export const FULL_PASS_THREAD_MIN = 200

/** What the worker made: the files of every whole-content emitter, the manifest file, and what names the build. */
export interface FullPass {
  /**
   * Files by emitter name (every emitter but the per-collection ones, those without files too); a file
   * the dev server already has, as the last pass it adopted made it, as its ETag alone.
   */
  owners: Record<string, Record<string, BuildFile | Unchanged>>
  manifest: BuildFile
  buildId: string
  inputHash: string
  warnings: string[]
}

export interface FullPassWorkerData {
  root: string
  /** The origin of the dev server's compiler, for the same output. */
  apiOrigin: ApiOrigin
  /** The highest pass id cancelled (one Int32 on shared memory). */
  cancelled: Int32Array
}

/** A file of a pass left out: the dev server has these bytes already (the pass it adopted last had them). */
export interface Unchanged {
  unchanged: string
}

export function isUnchanged(file: BuildFile | Unchanged): file is Unchanged {
  return 'unchanged' in file
}

/** A pass: the paths changed since the last one, and the id of the pass the dev server adopted last (if its files are that pass's). */
export type FullPassRequest =
  | { kind: 'pass'; id: number; paths: ContentPath[]; adopted: number | undefined }
  | { kind: 'cancel'; id: number }
/**
 * The worker's answer to a pass: the pass; or the files it found changed
 * that no event reported (its stat scan runs before the pass, off the dev
 * server's thread: 30,000 stats held edits there); or neither, when it was
 * interrupted or its content has errors.
 */
export interface FullPassReply {
  id: number
  pass: FullPass | undefined
  missed?: ContentPath[]
}

export class FullPassThread {
  private readonly worker
  private next = 0
  private readonly waiting = new Map<number, (reply: Omit<FullPassReply, 'id'>) => void>()
  private failure: Error | undefined
  /** The pass whose whole-content files the dev server holds (adopted, and not replaced by its own full emit since). */
  private adopted: number | undefined

  /**
   * The highest pass id cancelled, written here and read by the worker's checkpoints (core/interrupt.ts):
   * a cancel message would wait until the emitter running there ends, seconds at 30,000 items.
   */
  private readonly cancelled = new Int32Array(new SharedArrayBuffer(4))

  constructor(root: string, apiOrigin: ApiOrigin) {
    this.worker = startModuleWorker(import.meta.url, 'full-pass-worker', {
      root,
      apiOrigin,
      cancelled: this.cancelled,
    } satisfies FullPassWorkerData)
    this.worker.on('message', (reply: FullPassReply) => {
      this.waiting.get(reply.id)?.({ pass: reply.pass && revive(reply.pass), missed: reply.missed })
      this.waiting.delete(reply.id)
    })
    const fail = (error: Error) => {
      this.failure ??= error
      for (const resolve of this.waiting.values()) resolve({ pass: undefined })
      this.waiting.clear()
    }
    this.worker.on('error', fail)
    this.worker.on('exit', (code) => fail(new Error(`the full pass worker exited with ${code}`)))
    // The dev server may end while the worker still opens its compiler.
    this.worker.unref()
  }

  /** Why the worker stopped, once it did (the caller then runs the full pass itself). */
  failed(): Error | undefined {
    return this.failure
  }

  /**
   * Have the worker read `paths` (changed since the last pass), look for
   * files changed unreported, and run the full pass; `cancel` when a newer
   * edit makes it stale.
   */
  pass(paths: ContentPath[]): { id: number; result: Promise<Omit<FullPassReply, 'id'>>; cancel(): void } {
    const id = ++this.next
    const result = new Promise<Omit<FullPassReply, 'id'>>((resolve) => {
      if (this.failure) return resolve({ pass: undefined })
      this.waiting.set(id, resolve)
      this.worker.postMessage({ kind: 'pass', id, paths, adopted: this.adopted } satisfies FullPassRequest)
    })
    const cancel = () => {
      if (this.failure) return
      if (Atomics.load(this.cancelled, 0) < id) Atomics.store(this.cancelled, 0, id)
      this.worker.postMessage({ kind: 'cancel', id } satisfies FullPassRequest)
    }
    return { id, result, cancel }
  }

  /** The dev server adopted pass `id` (undefined: it made its whole-content files itself; the next pass carries them all). */
  holds(id: number | undefined): void {
    this.adopted = id
  }

  async close(): Promise<void> {
    await this.worker.terminate()
  }
}

/** Files from this size on travel as moved copies (`movedCopies`). */
export const MOVE_FROM_BYTES = 256 * 1024

/**
 * The pass's large files (llms-full.txt, the manifest) swapped for copies made on the worker's
 * thread; the copies' memory, to move with the message. A message's bytes are otherwise copied on
 * the receiving thread, the dev server's, where a save then waited for them. Copies, because the
 * worker's compiler keeps the originals.
 */
export function movedCopies(pass: FullPass): ArrayBuffer[] {
  const moved: ArrayBuffer[] = []
  const copy = <F extends BuildFile>(file: F): F => {
    if (file.body.byteLength < MOVE_FROM_BYTES) return file
    const bytes = new Uint8Array(file.body)
    moved.push(bytes.buffer)
    return { ...file, body: Buffer.from(bytes.buffer) }
  }
  for (const files of Object.values(pass.owners))
    for (const [path, file] of Object.entries(files)) if (!isUnchanged(file)) files[path] = copy(file)
  pass.manifest = copy(pass.manifest)
  return moved
}

/** Buffers arrive as plain Uint8Arrays: view them as Buffers again (no copy). */
function revive(pass: FullPass): FullPass {
  const file = (f: BuildFile | Unchanged): BuildFile | Unchanged => (isUnchanged(f) ? f : reviveFile(f))
  const owners: FullPass['owners'] = {}
  for (const [owner, files] of Object.entries(pass.owners)) {
    owners[owner] = {}
    for (const [path, f] of Object.entries(files)) owners[owner][path] = file(f)
  }
  return { ...pass, owners, manifest: reviveFile(pass.manifest) }
}

function reviveFile(f: BuildFile): BuildFile {
  return {
    body: Buffer.from(f.body.buffer, f.body.byteOffset, f.body.byteLength),
    etag: f.etag,
    // A file kept on disk (a processed image) is named, not carried.
    ...(f.file === undefined ? {} : { file: f.file }),
  }
}

/**
 * `pass` with the files `sent` (the ETags of the pass the dev server holds) already had, the same
 * bytes, as their ETag alone; `sent` becomes this pass's.
 */
export function leaveOutUnchanged(
  pass: FullPass,
  sent: Map<string, string> | undefined,
): { pass: FullPass; sent: Map<string, string> } {
  const now = new Map<string, string>()
  const owners: FullPass['owners'] = {}
  for (const [owner, files] of Object.entries(pass.owners)) {
    owners[owner] = {}
    for (const [path, file] of Object.entries(files)) {
      const etag = isUnchanged(file) ? file.unchanged : file.etag
      now.set(path, etag)
      owners[owner][path] = sent?.get(path) === etag ? { unchanged: etag } : file
    }
  }
  return { pass: { ...pass, owners }, sent: now }
}
