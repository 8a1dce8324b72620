/**
 * Render the Markdown bodies the cache does not have on every core and put
 * them in the cache; compileFile then finds every body rendered. Rendering is
 * most of a cold build and each body is independent, so this is where the
 * second core helps. Output does not depend on it: the same function renders
 * on either thread, keyed by the body's hash. Any failure of the pool only
 * costs time (compileFile renders what is missing).
 *
 * Threads start only when the work pays for them, by a cost model measured
 * on this machine's kind (bench/results/history/BENCHMARKS-2026-11.md,
 * "Render pool"): rendering runs at about RENDER_BYTES_PER_MS of Markdown
 * on one warm thread, and a worker takes about WORKER_START_MS to start and
 * warm up. With the main thread rendering too, k workers save
 * (work × k / (k + 1)) and cost their start, so they start when the work is
 * worth more than that.
 */
import { availableParallelism } from 'node:os'
import { setImmediate } from 'node:timers/promises'
import type { Worker } from 'node:worker_threads'
import { startModuleWorker } from '../core/worker.ts'
import { RenderCache } from './cache.ts'
import { hasDirectives } from './markdown-directives.ts'
import { renderBody } from './markdown.ts'
import type { RenderedBody } from './markdown-types.ts'

/** Markdown rendered per millisecond on one warm thread (realistic prose: ~1,300 words a body). */
export const RENDER_BYTES_PER_MS = 5000
/** A bundled worker's start until it renders at full speed (loading its chunk, warming the renderer). */
export const WORKER_START_MS = 150
const CHUNK = 16
/** Files parsed between two looks at the workers' answers (a short batch, so their answers do not wait). */
const PARSE_BATCH = 32

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

type Job = [key: string, body: string]

/**
 * Chunks a worker holds at once: it starts the next while its answer to the
 * last waits for the main thread, which takes messages only between its own
 * chunks (or between batches of files it parses).
 */
const IN_FLIGHT = 2

/**
 * Workers started ahead of the work, fed bodies as the main thread finds
 * them (`feed`, while it parses the files), then rendering with the main
 * thread until none are left (`finish`).
 */
export class RenderPool {
  /** Chunks no thread has taken yet, and the chunk being filled. */
  private readonly queue: Job[][] = []
  private filling: Job[] = []
  private readonly queued = new Set<string>()
  private closed = false
  /** Workers with nothing to do, woken by `feed` and `finish`. */
  private readonly waiting = new Set<() => void>()
  private readonly drained: Promise<void>[]

  private constructor(
    private readonly workers: Worker[],
    private readonly cache: RenderCache,
  ) {
    this.drained = workers.map((worker) => this.drain(worker))
  }

  /** Start `count` workers filling `cache`; undefined when none (render on this thread). */
  static start(count: number, cache: RenderCache): RenderPool | undefined {
    if (count < 1) return undefined
    try {
      const workers = Array.from({ length: count }, () => startModuleWorker(import.meta.url, 'render-worker'))
      return new RenderPool(workers, cache)
    } catch {
      return undefined
    }
  }

  /** Queue the bodies the cache lacks (each once); idle workers start on them at once. */
  feed(bodies: Iterable<string>): void {
    for (const body of bodies) {
      // Bodies with components render with the site's declarations, in compileFile.
      if (hasDirectives(body)) continue
      const key = RenderCache.key(body)
      if (this.queued.has(key) || this.cache.has(key)) continue
      this.queued.add(key)
      this.filling.push([key, body])
      if (this.filling.length === CHUNK) this.queue.push(this.filling.splice(0))
    }
    this.wake()
  }

  /**
   * `parse` every source, in batches, each batch's bodies fed to the workers
   * as soon as it is parsed: they render while this thread parses the rest.
   */
  async feedAsParsed<S, P>(
    sources: readonly S[],
    parse: (source: S) => P,
    bodyOf: (parsed: P) => string,
  ): Promise<P[]> {
    const parsed: P[] = []
    for (let i = 0; i < sources.length; i += PARSE_BATCH) {
      const batch = sources.slice(i, i + PARSE_BATCH).map(parse)
      parsed.push(...batch)
      this.feed(batch.map(bodyOf))
      // The workers' answers come in here: each gets its next chunk.
      await setImmediate()
    }
    return parsed
  }

  /** Render what is queued here and on the workers, then stop the workers. */
  async finish(): Promise<void> {
    this.closed = true
    if (this.filling.length) this.queue.push(this.filling.splice(0))
    this.wake()
    try {
      await Promise.all([...this.drained, this.renderHere()])
    } finally {
      await this.close()
    }
  }

  /** Stop the workers (after `finish`, or instead of it when the build failed). */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()))
  }

  private wake(): void {
    for (const post of [...this.waiting]) {
      this.waiting.delete(post)
      post()
    }
  }

  /** This thread takes chunks too, one at a time, letting the workers' answers in between. */
  private async renderHere(): Promise<void> {
    for (let chunk = this.queue.shift(); chunk; chunk = this.queue.shift()) {
      for (const [key, body] of chunk) {
        const rendered = renderBody(body).rendered
        if (rendered) this.cache.set(key, rendered)
      }
      await setImmediate()
    }
  }

  /**
   * Keep one worker busy until the queue is closed and empty. A worker that
   * fails (or cannot start) hands its chunks back: this thread renders them,
   * or compileFile does.
   */
  private drain(worker: Worker): Promise<void> {
    return new Promise((resolve) => {
      const inFlight = new Map<number, Job[]>()
      let sent = 0
      let ended = false
      const end = () => {
        ended = true
        this.waiting.delete(post)
        for (const chunk of inFlight.values()) this.queue.push(chunk)
        inFlight.clear()
        resolve()
      }
      const post = () => {
        if (ended) return
        this.waiting.delete(post)
        for (let chunk: Job[] | undefined; inFlight.size < IN_FLIGHT && (chunk = this.queue.shift()); ) {
          inFlight.set(sent, chunk)
          worker.postMessage({ id: sent++, bodies: chunk.map(([, body]) => body) })
        }
        if (this.closed && !inFlight.size) end()
        else if (!this.closed && inFlight.size < IN_FLIGHT) this.waiting.add(post)
      }
      worker.on('message', ({ id, results }: { id: number; results: (RenderedBody | null)[] }) => {
        inFlight.get(id)?.forEach(([key], i) => {
          const rendered = results[i]
          if (rendered) this.cache.set(key, rendered)
        })
        inFlight.delete(id)
        post()
      })
      worker.once('error', end)
      worker.once('exit', end)
      post()
    })
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
  const pool = RenderPool.start(Math.min(workers ?? workersWorth(bytes, threads), threads - 1), cache)
  if (!pool) return
  pool.feed(missing)
  await pool.finish()
}
