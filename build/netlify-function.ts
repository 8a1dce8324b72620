#!/usr/bin/env node
/**
 * Bundle the gateway's Netlify Function (gateway/netlify/gateway.ts) with
 * tsup into one self-contained ES module, `netlify-functions/gateway.mjs`
 * (git-ignored; netlify.toml points at it). One file with no node_modules
 * left to resolve, so what the local emulation runs is what gets deployed.
 */
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { build } from 'tsup'
import { FUNCTION_NAME } from './contract/public-paths.ts'

export const FUNCTIONS_DIR = 'netlify-functions'

/** Bundle from the project at `root` into `<outRoot>/netlify-functions/`; returns the file. */
export async function bundleFunction(root: string, outRoot = root): Promise<string> {
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string }
  const outDir = join(outRoot, FUNCTIONS_DIR)
  await build({
    entry: { [FUNCTION_NAME]: join(root, 'gateway/netlify/gateway.ts') },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    bundle: true,
    noExternal: [/.*/],
    splitting: false,
    sourcemap: false,
    clean: true,
    dts: false,
    silent: true,
    outExtension: () => ({ js: '.mjs' }),
    define: { __GATEWAY_VERSION__: JSON.stringify(version) },
    // CommonJS dependencies inside an ES module still call require() for built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    tsconfig: join(root, 'tsconfig.json'),
  })
  return join(outDir, `${FUNCTION_NAME}.mjs`)
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const started = performance.now()
  const file = await bundleFunction(process.cwd())
  console.log(`✓ bundled the gateway function into ${file} (${Math.round(performance.now() - started)} ms)`)
}
