/** Where things are: the repository, the results folder, node binaries. */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const REPO_ROOT = resolve(import.meta.dirname, '../..')
export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results')
/**
 * The content the realistic corpus is copied from and `npm run check` is measured on. The bench
 * proper measures the repository's own content/, what authors write; the smoke run (what the
 * tests run, test/bench) the tests' fixture content, so an author's draft in content/, valid or
 * not, never changes what a test sees.
 */
export const CONTENT_SOURCES = {
  repository: join(REPO_ROOT, 'content'),
  fixtures: join(REPO_ROOT, 'test', 'fixtures', 'content'),
} as const
/** Run a TypeScript entry point the way the npm scripts do (tsx), in one process. */
export const TSX_NODE_ARGS = ['--import', 'tsx']
/** Run one of the project's commands as the npm scripts do: prebuilt JavaScript (build/run.mjs). */
export const RUN_COMMAND = join(REPO_ROOT, 'build', 'run.mjs')
/**
 * The Node options `npm run build` and `npm run check` start their process with (package.json's
 * scripts: V8's background threads sized to the machine, build/run.mjs), so the bench times the
 * process a user runs.
 */
export const BUILD_NODE_ARGS = nodeOptionsOf('build')
/** The Node options `npm start` serves with (build/start.sh's `serve_flags`), so the bench times the gateway a host runs. */
export const SERVE_NODE_ARGS = serveOptions()
export const CHECK_NODE_ARGS = nodeOptionsOf('check')

export const BIN = {
  autocannon: join(REPO_ROOT, 'node_modules', 'autocannon', 'autocannon.js'),
  velite: join(REPO_ROOT, 'node_modules', 'velite', 'dist', 'cli.js'),
}

function nodeOptionsOf(script: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
  const options = /^node((?:\s+--\S+)*)\s+build\/run\.mjs\s/.exec(scripts[script] ?? '')
  if (!options) throw new Error(`package.json's "${script}" script does not run build/run.mjs with node`)
  return options[1]!.trim().split(/\s+/).filter(Boolean)
}

function serveOptions(): string[] {
  const script = readFileSync(join(REPO_ROOT, 'build', 'start.sh'), 'utf8')
  const flags = /^serve_flags="([^"]*)"$/m.exec(script)
  if (!flags) throw new Error('build/start.sh sets no serve_flags')
  return flags[1]!.split(/\s+/).filter(Boolean)
}
