/**
 * Bundle a gateway entry point with tsup into one self-contained ES module:
 * no node_modules left to resolve and no TypeScript compiled at run time.
 * The Netlify Function (build/deploy/netlify-function.ts) runs the gateway this way; the
 * commands (`npm start` among them) are bundled by prebuilt.ts.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'tsup'

/**
 * What the bundles are compiled for: the oldest Node the project runs on, the major version of
 * package.json's `engines` (`>=22.12`). The npm scripts run on the pinned `node` package (24),
 * but Netlify picks the Node of its function runtime itself, and a machine may run the
 * commands on its own Node 22: code for 22 runs on both.
 */
export const NODE_TARGET = `node${
  (
    JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
      engines: { node: string }
    }
  ).engines.node
    .replace(/^>=/, '')
    .split('.')[0]
}`

export interface BundleOptions {
  /** Project root (package.json, tsconfig.json). */
  root: string
  /** The entry point, relative to root. */
  entry: string
  outDir: string
  /** The bundle's file name, without `.mjs`. */
  name: string
}

/** CommonJS dependencies inside an ES module still call require() for built-ins. */
export const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"

/** Returns the bundle's path. */
export async function bundleEntry(options: BundleOptions): Promise<string> {
  await build({
    entry: { [options.name]: join(options.root, options.entry) },
    outDir: options.outDir,
    format: ['esm'],
    platform: 'node',
    target: NODE_TARGET,
    bundle: true,
    noExternal: [/.*/],
    splitting: false,
    sourcemap: false,
    clean: true,
    dts: false,
    silent: true,
    outExtension: () => ({ js: '.mjs' }),
    banner: { js: REQUIRE_BANNER },
    // CommonJS dependencies that read __filename (write-file-atomic names its temporary files by it) get the chunk's.
    shims: true,
    tsconfig: join(options.root, 'tsconfig.json'),
  })
  return join(options.outDir, `${options.name}.mjs`)
}
