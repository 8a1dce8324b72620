/**
 * Worker thread of the render pool: Markdown bodies in, rendered bodies out;
 * null for a body with an image without alt text (the main thread reports it
 * with its file position) or one that needs the reference renderer (the main
 * thread renders it, so workers never load unified).
 */
import { parentPort } from 'node:worker_threads'
import { renderFast } from './markdown-fast.ts'
import type { RenderedBody } from './markdown-types.ts'

parentPort!.on('message', (bodies: string[]) => {
  const out: (RenderedBody | null)[] = bodies.map((body) => renderFast(body)?.rendered ?? null)
  parentPort!.postMessage(out)
})
