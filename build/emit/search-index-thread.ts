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

/** Below this many documents the index takes a few milliseconds: not worth a thread's start-up. */
export const OFF_THREAD_MIN = 1000

export interface SearchTask {
  /** The index file; rejects if the worker fails (the caller builds it in-thread instead). */
  result: Promise<BuildFile>
  /** Stop the worker: a newer edit made this index stale. */
  cancel(): void
}

export function searchIndexOffThread(documents: SearchDocument[]): SearchTask {
  const worker = startModuleWorker(import.meta.url, 'search-index-worker')
  const result = new Promise<BuildFile>((resolve, reject) => {
    worker.once('message', (bytes: Uint8Array) => {
      const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      resolve({ body, etag: etagOf(body) })
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`search index worker exited with ${code}`)))
  }).finally(() => void worker.terminate())
  // Cancelled tasks reject; nobody awaits them.
  result.catch(() => undefined)
  worker.postMessage(documents)
  return { result, cancel: () => void worker.terminate() }
}
