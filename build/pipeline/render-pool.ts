/**
 * Render the Markdown bodies the cache does not have on worker threads and
 * put them in the cache; compileFile then finds every body
 * rendered. Rendering is most of a cold build and each body is independent,
 * so this is where the second core helps. Output does not depend on it: the
 * same function renders on either thread, keyed by the body's hash. Any
 * failure of the pool only costs time (compileFile renders what is missing).
 */
import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import { RenderCache } from './cache.ts'
import type { RenderedBody } from './markdown.ts'
import { startModuleWorker } from '../core/worker.ts'

/**
 * Below this many bodies to render, starting threads costs more than it
 * saves: a worker takes 0.4–1 s to start and warm up, and the markdown-it
 * renderer does 2,000 bodies in about 0.6 s on one warm thread (BENCHMARKS.md).
 */
export const MIN_BODIES = 5000
const CHUNK = 32

/**
 * `threads`: BUILD_THREADS (1 turns the pool off); by default one per core as
 * availableParallelism() reports, so a one-core machine never starts a worker.
 */
export async function prerenderBodies(
  bodies: readonly string[],
  cache: RenderCache,
  threads = availableParallelism(),
  minBodies = MIN_BODIES,
): Promise<void> {
  const missing = new Map<string, string>()
  for (const body of bodies) {
    const key = RenderCache.key(body)
    if (!cache.has(key)) missing.set(key, body)
  }
  if (threads < 2 || missing.size < minBodies) return
  const jobs = [...missing]
  const chunks: [string, string][][] = []
  for (let i = 0; i < jobs.length; i += CHUNK) chunks.push(jobs.slice(i, i + CHUNK))
  let workers: Worker[] = []
  try {
    workers = Array.from({ length: Math.min(threads, chunks.length) }, () =>
      startModuleWorker(import.meta.url, 'render-worker'),
    )
    await Promise.all(workers.map((worker) => drain(worker, chunks, cache)))
  } catch {
    // A worker that cannot start (e.g. no TypeScript loader in this process) or fails: render on this thread instead.
  } finally {
    await Promise.all(workers.map((w) => w.terminate()))
  }
}

/** Feed chunks to one worker until none are left. */
function drain(worker: Worker, chunks: [string, string][][], cache: RenderCache): Promise<void> {
  return new Promise((resolve, reject) => {
    let current: [string, string][] | undefined
    const next = () => {
      current = chunks.shift()
      if (!current) return resolve()
      worker.postMessage(current.map(([, body]) => body))
    }
    worker.on('message', (results: (RenderedBody | null)[]) => {
      current!.forEach(([key], i) => {
        const rendered = results[i]
        if (rendered) cache.set(key, rendered)
      })
      next()
    })
    worker.once('error', reject)
    worker.once('exit', (code) => (current ? reject(new Error(`render worker exited with ${code}`)) : resolve()))
    next()
  })
}
