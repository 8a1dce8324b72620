/**
 * The search index, built on a worker thread. MiniSearch over 10,000 items
 * takes seconds of CPU in one synchronous call: in the watch mode that would
 * hold every request and every edit for as long, and in a build the other
 * emitters can run meanwhile. The worker runs the same serializeSearchIndex,
 * so the bytes are the same.
 */
import type { SearchDocument } from '../contract/search.ts'
import { startModuleWorker } from '../worker.ts'

/** Below this many documents the index takes tens of milliseconds: not worth a thread's start-up. */
export const OFF_THREAD_MIN = 1000

export interface SearchTask {
  /** The index file's text; rejects if the worker fails (the caller builds it in-thread instead). */
  result: Promise<string>
  /** Stop the worker: a newer edit made this index stale. */
  cancel(): void
}

export function searchIndexOffThread(documents: SearchDocument[]): SearchTask {
  const worker = startModuleWorker(import.meta.url, 'search-index-worker')
  const result = new Promise<string>((resolve, reject) => {
    worker.once('message', (text: string) => resolve(text))
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`search index worker exited with ${code}`)))
  }).finally(() => void worker.terminate())
  // Cancelled tasks reject; nobody awaits them.
  result.catch(() => undefined)
  worker.postMessage(documents)
  return { result, cancel: () => void worker.terminate() }
}

