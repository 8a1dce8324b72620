/**
 * Bundle a gateway entry point with tsup into one self-contained ES module:
 * no node_modules left to resolve and no TypeScript compiled at run time.
 * The Netlify Function (netlify-function.ts) runs the gateway this way; the
 * commands (`npm start` among them) are bundled by prebuilt.ts.
 */
import { join } from 'node:path'
import { build } from 'tsup'

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
    target: 'node20',
    bundle: true,
    noExternal: [/.*/],
    splitting: false,
    sourcemap: false,
    clean: true,
    dts: false,
    silent: true,
    outExtension: () => ({ js: '.mjs' }),
    banner: { js: REQUIRE_BANNER },
    tsconfig: join(options.root, 'tsconfig.json'),
  })
  return join(options.outDir, `${options.name}.mjs`)
}
