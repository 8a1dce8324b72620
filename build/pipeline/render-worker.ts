/**
 * Worker thread of the render pool: Markdown bodies in, rendered bodies out;
 * null for a body with an image without alt text (the main thread reports it
 * with its file position). Bodies the fast renderer declines (see
 * markdown-fast.ts) take the reference renderer here too: unified loads in the
 * worker with the first such body, so a build without one never loads it.
 */
import { parentPort } from 'node:worker_threads'
import { renderFast } from './markdown-fast.ts'
import type { RenderedBody } from './markdown-types.ts'

let reference: Promise<typeof import('./markdown-reference.ts')> | undefined

parentPort!.on('message', async (bodies: string[]) => {
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
  parentPort!.postMessage(out)
})
