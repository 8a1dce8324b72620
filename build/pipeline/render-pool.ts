/**
 * Render the Markdown bodies the cache does not have on every core and put
 * them in the cache; compileFile then finds every body rendered. Rendering is
 * most of a cold build and each body is independent, so this is where the
 * second core helps. Output does not depend on it: the same function renders
 * on either thread, keyed by the body's hash. Any failure of the pool only
 * costs time (compileFile renders what is missing).
 *
 * Threads start only when the work pays for them, by a cost model measured
 * on this machine's kind (BENCHMARKS.md, "Render pool"): rendering runs at
 * about RENDER_BYTES_PER_MS of Markdown on one warm thread, and a worker
 * takes about WORKER_START_MS to start and warm up. With the main thread
 * rendering too, k workers save (work × k / (k + 1)) and cost their start,
 * so they start when the work is worth more than that.
 */
import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import { startModuleWorker } from '../core/worker.ts'
import { RenderCache } from './cache.ts'
import { renderBody } from './markdown.ts'
import type { RenderedBody } from './markdown-types.ts'

/** Markdown rendered per millisecond on one warm thread (realistic prose: ~1,300 words a body). */
export const RENDER_BYTES_PER_MS = 5000
/** A bundled worker's start until it renders at full speed (loading its chunk, warming the renderer). */
export const WORKER_START_MS = 150
const CHUNK = 16

/**
 * Raw HTML in a body costs a second parse of the whole tree (parse5) and the
 * sanitiser: about twice the work of a body without (markdown-raw.ts). A tag
 * anywhere counts (it may sit in a code span: the estimate errs on the side
 * of starting a worker).
 */
const RAW_HTML = /<\/?[a-z][\w-]*[\s>/]/i
const RAW_HTML_COST = 2

/** The work of rendering `markdown` (a body, or a whole file), in bytes of the fast renderer's work. */
export function renderWork(markdown: string): number {
  return RAW_HTML.test(markdown) ? markdown.length * RAW_HTML_COST : markdown.length
}

/** How many worker threads `bytes` of Markdown to render are worth, with `threads` cores to use. */
export function workersWorth(bytes: number, threads = availableParallelism()): number {
  const work = bytes / RENDER_BYTES_PER_MS
  let workers = 0
  // One more worker while it saves more than its start costs.
  while (workers + 1 < threads && work / (workers + 1) - work / (workers + 2) > WORKER_START_MS) workers++
  return workers
}

/** Workers started ahead of the work (they load while the main thread parses), then fed chunks with it. */
export class RenderPool {
  private constructor(private readonly workers: Worker[]) {}

  /** Start `count` workers; undefined when none (render on this thread). */
  static start(count: number): RenderPool | undefined {
    if (count < 1) return undefined
    try {
      return new RenderPool(Array.from({ length: count }, () => startModuleWorker(import.meta.url, 'render-worker')))
    } catch {
      return undefined
    }
  }

  /** Render the bodies `cache` lacks here and on the workers, then stop the workers. */
  async render(bodies: readonly string[], cache: RenderCache): Promise<void> {
    const chunks = missingChunks(bodies, cache)
    try {
      await Promise.all([...this.workers.map((w) => drain(w, chunks, cache)), renderHere(chunks, cache)])
    } finally {
      await this.close()
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()))
  }
}

/**
 * `threads`: BUILD_THREADS (1 turns the pool off); by default one per core as
 * availableParallelism() reports, so a one-core machine never starts a worker.
 * `workers`: how many to start (default: what the bodies are worth).
 */
export async function prerenderBodies(
  bodies: readonly string[],
  cache: RenderCache,
  threads = availableParallelism(),
  workers?: number,
): Promise<void> {
  const missing = bodies.filter((body) => !cache.has(RenderCache.key(body)))
  const bytes = missing.reduce((sum, body) => sum + renderWork(body), 0)
  const pool = RenderPool.start(Math.min(workers ?? workersWorth(bytes, threads), threads - 1))
  await pool?.render(missing, cache)
}

/** The bodies the cache lacks, each once, in chunks with their keys. */
function missingChunks(bodies: readonly string[], cache: RenderCache): [string, string][][] {
  const missing = new Map<string, string>()
  for (const body of bodies) {
    const key = RenderCache.key(body)
    if (!cache.has(key)) missing.set(key, body)
  }
  const jobs = [...missing]
  const chunks: [string, string][][] = []
  for (let i = 0; i < jobs.length; i += CHUNK) chunks.push(jobs.slice(i, i + CHUNK))
  return chunks
}

/** This thread takes chunks too, one at a time, letting the workers' answers in between. */
async function renderHere(chunks: [string, string][][], cache: RenderCache): Promise<void> {
  for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
    for (const [key, body] of chunk) {
      const rendered = renderBody(body).rendered
      if (rendered) cache.set(key, rendered)
    }
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/**
 * Feed chunks to one worker until none are left. A worker that fails (or
 * cannot start) hands its chunk back: this thread renders it, or compileFile
 * does.
 */
function drain(worker: Worker, chunks: [string, string][][], cache: RenderCache): Promise<void> {
  return new Promise((resolve) => {
    let current: [string, string][] | undefined
    const next = () => {
      current = chunks.shift()
      if (!current) return resolve()
      worker.postMessage(current.map(([, body]) => body))
    }
    const fail = () => {
      if (current) chunks.push(current)
      current = undefined
      resolve()
    }
    worker.on('message', (results: (RenderedBody | null)[]) => {
      current!.forEach(([key], i) => {
        const rendered = results[i]
        if (rendered) cache.set(key, rendered)
      })
      next()
    })
    worker.once('error', fail)
    worker.once('exit', fail)
    next()
  })
}
