/**
 * The commands as prebuilt JavaScript (build/run.mjs runs them): one tsup
 * bundle with an entry per command and per worker thread, split into shared
 * chunks, so a command loads only the modules it reaches and the heavy ones
 * behind a dynamic import (the compile pipeline, the OpenID provider, the MCP
 * SDK) load when their work comes. Workers sit beside the chunks that start
 * them (build/core/worker.ts finds `./<name>.js`).
 */
import { cp, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { build, type Options } from 'tsup'
import { NODE_TARGET, REQUIRE_BANNER } from './tsup.ts'
import { sourceFingerprint } from '../compiler/inputs.ts'

/** Command name → its TypeScript entry, relative to the project root. */
export const COMMANDS = {
  cli: 'build/cli.ts',
  new: 'build/scaffold/new.ts',
  import: 'build/import/cli.ts',
  dev: 'gateway/dev.ts',
  serve: 'gateway/serve.ts',
  keys: 'gateway/auth/keys-cli.ts',
} as const

/** Worker threads, by the name their starters give (build/core/worker.ts). */
const WORKERS = {
  'render-worker': 'build/pipeline/render-worker.ts',
  'full-pass-worker': 'build/compiler/full-pass-worker.ts',
  'search-index-worker': 'build/emit/search-index-worker.ts',
  'write-worker': 'build/emit/write-worker.ts',
} as const

/** Bundle every command of the project at `root` into `outDir`. */
export async function bundleCommands(root: string, outDir: string): Promise<void> {
  const entry: Record<string, string> = {}
  for (const [name, path] of Object.entries({ ...COMMANDS, ...WORKERS })) entry[name] = join(root, path)
  await build({
    entry,
    outDir,
    format: ['esm'],
    platform: 'node',
    target: NODE_TARGET,
    bundle: true,
    // Everything but sharp, a native addon whose loader finds its platform's binary from its own folder.
    noExternal: [/^(?!sharp$)/],
    external: ['sharp'],
    splitting: true,
    sourcemap: false,
    clean: true,
    dts: false,
    silent: true,
    outExtension: () => ({ js: '.js' }),
    define: { __GENERATOR_FINGERPRINT__: JSON.stringify(await sourceFingerprint(root)) },
    banner: { js: REQUIRE_BANNER },
    // CommonJS dependencies that read __filename (write-file-atomic names its temporary files by it) get the chunk's.
    shims: true,
    tsconfig: join(root, 'tsconfig.json'),
    esbuildPlugins: [markdownItClassFields()],
  })
  // The editor's browser scripts, which build/emit/admin.ts reads from beside itself: beside the chunks.
  await cp(join(root, 'build', 'emit', 'admin'), join(outDir, 'admin'), { recursive: true })
}

type Plugin = NonNullable<Options['esbuildPlugins']>[number]

/**
 * markdown-it 15 ships its classes with their fields lowered to a helper call,
 * `_defineProperty(this, "tokens", [])`, for every field of every Token, state
 * and ruler made: the helper's property-key coercion and its store through a
 * computed key, shared by every class, show in a build's CPU profile and
 * make rendering slower than markdown-it 14's plain assignments
 * (BENCHMARKS.md, "Mechanisms and their gains"). In its constructors these become `;(this.tokens = [])` again:
 * the same objects (no markdown-it class has a setter a field would shadow),
 * made as fast as before. A markdown-it without the helper is left as it is.
 */
function markdownItClassFields(): Plugin {
  const fieldCall = /_defineProperty\(\s*this,\s*(?:\/\*[\s\S]*?\*\/\s*)?"([A-Za-z_$][\w$]*)",\s*/g
  return {
    name: 'markdown-it-class-fields',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]markdown-it[\\/]dist[\\/]markdown-it\.mjs$/ }, async (args) => ({
        contents: (await readFile(args.path, 'utf8')).replace(fieldCall, (_, field: string) => `;(this.${field} = `),
        loader: 'js',
      }))
    },
  }
}
