/**
 * Worker thread of the render pool: chunks of Markdown bodies in, rendered
 * bodies out, each answer with its chunk's id; null for a body with an image
 * without alt text (the main thread reports it with its file position).
 * Bodies the fast renderer declines (see markdown-fast.ts) take the reference
 * renderer here too: unified loads in the worker with the first such body, so
 * a build without one never loads it. Chunks are rendered one after the other
 * in the order they came, even across that load.
 */
import { parentPort } from 'node:worker_threads'
import { renderFast } from './markdown-fast.ts'
import type { RenderedBody } from './markdown-types.ts'

let reference: Promise<typeof import('./markdown-reference.ts')> | undefined
let previous: Promise<void> = Promise.resolve()

async function render(bodies: string[]): Promise<(RenderedBody | null)[]> {
  const out: (RenderedBody | null)[] = []
  for (const body of bodies) {
    const fast = renderFast(body)
    if (fast) {
      out.push(fast.rendered ?? null)
      continue
    }
    reference ??= import('./markdown-reference.ts')
    out.push((await reference).renderReference(body).rendered ?? null)
  }
  return out
}

parentPort!.on('message', ({ id, bodies }: { id: number; bodies: string[] }) => {
  previous = previous
    .then(async () => parentPort!.postMessage({ id, results: await render(bodies) }))
    // Out of the chain, as an uncaught error: the worker ends and the pool hands its chunks back.
    .catch((error: unknown) =>
      queueMicrotask(() => {
        throw error
      }),
    )
})
