#!/usr/bin/env node
/**
 * Bundle the gateway's Netlify Function (gateway/netlify/gateway.ts) with
 * tsup into one self-contained ES module, `netlify-functions/gateway.mjs`
 * (git-ignored; netlify.toml points at it). One file with no node_modules
 * left to resolve, so what the local emulation runs is what gets deployed.
 */
import { join, resolve } from 'node:path'
import { bundleEntry } from './bundle.ts'
import { FUNCTION_NAME } from '../contract/public-paths.ts'

export const FUNCTIONS_DIR = 'netlify-functions'

/** Bundle from the project at `root` into `<outRoot>/netlify-functions/`; returns the file. */
export function bundleFunction(root: string, outRoot = root): Promise<string> {
  return bundleEntry({
    root,
    entry: 'gateway/netlify/gateway.ts',
    outDir: join(outRoot, FUNCTIONS_DIR),
    name: FUNCTION_NAME,
  })
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const started = performance.now()
  const file = await bundleFunction(process.cwd())
  console.log(`✓ bundled the gateway function into ${file} (${Math.round(performance.now() - started)} ms)`)
}
