/**
 * The search index, built on a worker thread for large content: in the watch
 * mode a synchronous build of it would hold every request and every edit for
 * as long, and in a build the other emitters run meanwhile. The worker runs
 * the same serializeSearchIndex, so the bytes are the same.
 */
import { etagOf } from '../../contract/etag.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import type { SearchDocument } from '../../contract/search.ts'
import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import { startModuleWorker } from '../core/worker.ts'

/**
 * Below this much text the index takes less than a worker's start-up. A
 * build starts the worker before it emits the items and lists
 * (startOffThread), so the worker starts and builds the index while this
 * thread makes everything else, and the build is shorter by what the index
 * would have taken here. Measured in text, not documents: a corpus of long bodies
 * crosses it sooner than one of short notes.
 */
export const OFF_THREAD_MIN_CHARS = 300_000

/** The text the index is made of, in characters. */
export function documentChars(documents: readonly SearchDocument[]): number {
  let chars = 0
  for (const d of documents) chars += d.title.length + d.summary.length + d.details.length + d.text.length
  return chars
}

export interface SearchTask {
  /** The index files; rejects if the worker fails (the caller builds them in-thread instead). */
  result: Promise<BuildFile[]>
  /** Stop the worker: a newer edit made this index stale. */
  cancel(): void
}

/** A locale's documents, the collections their indexes number (the model's, in order), and its stemmer. */
type SearchJob = { documents: SearchDocument[]; names: readonly string[]; stem?: string }

/**
 * The indexes of `jobs` (a locale's documents and stemmer each), in their order. A
 * multilingual site's several indexes are shared out between up to one worker per core,
 * the largest first to the least loaded (the main thread is left the other emitters):
 * with one worker the rest of the build waited while it built the indexes one
 * after another.
 */
export function searchIndexOffThread(jobs: readonly SearchJob[], threads = availableParallelism()): SearchTask {
  const groups = shareOut(jobs, Math.max(1, Math.min(threads, jobs.length)))
  const workers = groups.map(() => startModuleWorker(import.meta.url, 'search-index-worker'))
  const built = groups.map((group, g) =>
    indexesOn(
      workers[g]!,
      group.map((i) => jobs[i]!),
    ),
  )
  const result = Promise.all(built)
    .then((files) => {
      const inOrder: BuildFile[] = []
      for (const [g, group] of groups.entries()) for (const [k, i] of group.entries()) inOrder[i] = files[g]![k]!
      return inOrder
    })
    .finally(() => workers.forEach((worker) => void worker.terminate()))
  // Cancelled tasks reject; nobody awaits them.
  result.catch(() => undefined)
  return { result, cancel: () => workers.forEach((worker) => void worker.terminate()) }
}

/** The jobs' indexes built on `worker`, in the order given. */
function indexesOn(worker: Worker, jobs: readonly SearchJob[]): Promise<BuildFile[]> {
  const files = new Promise<BuildFile[]>((resolve, reject) => {
    worker.once('message', (all: Uint8Array[]) => {
      resolve(
        all.map((bytes) => {
          const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
          return { body, etag: etagOf(body) }
        }),
      )
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`search index worker exited with ${code}`)))
  })
  worker.postMessage(jobs.map(({ documents, names, stem }) => ({ documents, names, stem })))
  return files
}

/** Job indexes in `count` groups of about equal text, each group in job order. */
function shareOut(jobs: readonly SearchJob[], count: number): number[][] {
  const groups = Array.from({ length: count }, () => ({ jobs: [] as number[], chars: 0 }))
  const bySize = jobs.map((job, i) => ({ i, chars: documentChars(job.documents) })).sort((a, b) => b.chars - a.chars)
  for (const { i, chars } of bySize) {
    const least = groups.reduce((a, b) => (b.chars < a.chars ? b : a))
    least.jobs.push(i)
    least.chars += chars
  }
  return groups.filter((g) => g.jobs.length > 0).map((g) => g.jobs.sort((a, b) => a - b))
}
