/**
 * The search index, built on a worker thread for large content: in the watch
 * mode a synchronous build of it would hold every request and every edit for
 * as long, and in a build the other emitters run meanwhile. The worker runs
 * the same serializeSearchIndex, so the bytes are the same.
 */
import { etagOf } from '../../contract/etag.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import type { SearchDocument } from '../../contract/search.ts'
import { startModuleWorker } from '../core/worker.ts'

/**
 * Below this much text the index takes less than a worker's start-up. The
 * index is built at roughly 4 MB of document text per second on one thread
 * (1,000 items of real prose, 3.3 MB, took 0.8 s on a busy machine), and a
 * worker starts in about 0.15 s: from about 1 MB the other emitters have
 * enough to do meanwhile. Measured in text, not documents: a corpus of long
 * bodies crosses it at 300 items, one of short notes much later.
 */
export const OFF_THREAD_MIN_CHARS = 1_000_000

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

/** The indexes of `jobs` (a locale's documents and stemmer each), in their order. */
export function searchIndexOffThread(jobs: readonly { documents: SearchDocument[]; stem?: string }[]): SearchTask {
  const worker = startModuleWorker(import.meta.url, 'search-index-worker')
  const result = new Promise<BuildFile[]>((resolve, reject) => {
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
  }).finally(() => void worker.terminate())
  // Cancelled tasks reject; nobody awaits them.
  result.catch(() => undefined)
  worker.postMessage(jobs.map(({ documents, stem }) => ({ documents, stem })))
  return { result, cancel: () => void worker.terminate() }
}
