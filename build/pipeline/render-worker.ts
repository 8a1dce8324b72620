/**
 * Worker thread of the render pool: Markdown bodies in, rendered bodies out
 * (null for a body with an image without alt text, which the main thread
 * reports with its file position).
 */
import { parentPort } from 'node:worker_threads'
import { renderBody, type RenderedBody } from './markdown.ts'

parentPort!.on('message', (bodies: string[]) => {
  const out: (RenderedBody | null)[] = bodies.map((body) => renderBody(body).rendered ?? null)
  parentPort!.postMessage(out)
})
