#!/usr/bin/env node
/**
 * `npm start` runs the gateway from a bundle (build/bundle.ts), as the
 * Netlify Function does: one ES module in `.cache/gateway/serve.mjs`
 * (git-ignored), rebuilt by every `npm start`. Running it without tsx leaves
 * out tsx's loader thread and the TypeScript compiler, about a third of the
 * gateway's resident memory at start.
 */
import { join, resolve } from 'node:path'
import { bundleEntry } from './bundle.ts'

export const GATEWAY_BUNDLE = join('.cache', 'gateway', 'serve.mjs')

/** Bundle gateway/serve.ts of the project at `root`; returns the file. */
export function bundleGateway(root: string): Promise<string> {
  return bundleEntry({ root, entry: 'gateway/serve.ts', outDir: join(root, '.cache', 'gateway'), name: 'serve' })
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const started = performance.now()
  const file = await bundleGateway(process.cwd())
  console.error(`✓ bundled the gateway into ${file} (${Math.round(performance.now() - started)} ms)`)
}
