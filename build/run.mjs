#!/usr/bin/env node
/**
 * Run one of the project's commands from prebuilt JavaScript: no TypeScript
 * compiled at run time. The commands (build/bundle/prebuilt.ts) are bundled once into
 * `.cache/bin/<key>/`, where the key names the sources they were made from
 * (every .ts file of build/, contract/ and gateway/, and the editor's .js and
 * .css, by path, size and mtime; and the lockfile); a change to any of them
 * makes a new key, and the next run bundles again (a few seconds, once).
 * Plain JavaScript, so that nothing here needs compiling either.
 *
 *   node build/run.mjs <cli|dev|serve|keys|new> [args…]   (build/bundle/prebuilt.ts, COMMANDS)
 *   node build/run.mjs --watch dev [args…]   restart when the code changes (npm run dev)
 *
 * `npm run build`, `check` and `start`'s build (build/start.sh) start Node with
 * `--v8-pool-size=0`: V8's background threads (it compiles hot functions there) sized by
 * Node to the machine's cores less one, where Node's default of 4 had them compete with the
 * build's own threads on a small machine (BENCHMARKS.md, "Mechanisms and their gains"). It
 * must be given when the process starts, hence on the command line, not here.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from 'node:fs'
import module from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
const SOURCE_DIRS = ['build', 'contract', 'gateway']
const SOURCE_FILES = ['package-lock.json', 'tsconfig.json']
const BIN = join(ROOT, '.cache', 'bin')
/** Bundles kept besides the newest: a long-running server may still load chunks from an older one. */
const KEEP = 3
/** A bundling lock older than this was left by a process that died. */
const LOCK_STALE_MS = 180_000

/** The files the commands are made of (TypeScript, and the editor's browser scripts they copy), sorted. */
function sourceFiles() {
  const files = []
  for (const dir of SOURCE_DIRS)
    for (const entry of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true }))
      if (entry.isFile() && /\.(ts|js|css)$/.test(entry.name) && !entry.parentPath.includes('/.'))
        files.push(join(entry.parentPath, entry.name))
  return files.sort().concat(SOURCE_FILES.map((f) => join(ROOT, f)))
}

/** The sources' key: cheap (a stat per file, no read), and it changes whenever a source does. */
function sourcesKey() {
  const hash = createHash('sha256')
  for (const file of sourceFiles()) {
    const stat = statSync(file, { throwIfNoEntry: false })
    hash.update(`${file.slice(ROOT.length)}\0${stat?.size}\0${stat?.mtimeMs}\n`)
  }
  return hash.digest('hex').slice(0, 16)
}

/** The bundle for the current sources, made now when missing; its folder. */
async function prebuilt() {
  const key = sourcesKey()
  const dir = join(BIN, key)
  if (existsSync(join(dir, 'cli.js'))) return dir
  // One process bundles; the others started meanwhile (a test suite's, say) wait for its bundle.
  mkdirSync(BIN, { recursive: true })
  const lock = `${dir}.lock`
  while (!takeLock(lock)) {
    waitForBundle(dir, lock)
    if (existsSync(join(dir, 'cli.js'))) return dir
  }
  try {
    return await bundle(key, dir)
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/**
 * Take the bundling lock (a folder: made atomically, holding its owner's pid).
 * A lock whose owner has died (a bundling stopped with Ctrl-C) is taken over
 * at once; one without a readable owner, once it is older than LOCK_STALE_MS.
 */
function takeLock(lock) {
  try {
    mkdirSync(lock)
    writeFileSync(join(lock, 'pid'), String(process.pid))
    return true
  } catch (error) {
    if (error.code !== 'EEXIST') throw error
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0)
    if (safely(() => ownerAlive(lock)) !== false && age < LOCK_STALE_MS) return false
    rmSync(lock, { recursive: true, force: true })
    return takeLock(lock)
  }
}

/** Whether the lock's owner still runs; undefined when the lock names none (yet). */
function ownerAlive(lock) {
  const pid = Number(readFileSync(join(lock, 'pid'), { encoding: 'utf8', flag: 'r' }).trim() || NaN)
  if (!Number.isInteger(pid)) return undefined
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

/** Block until the lock's owner has made the bundle, given up or died. */
function waitForBundle(dir, lock) {
  const pause = new Int32Array(new SharedArrayBuffer(4))
  const deadline = Date.now() + LOCK_STALE_MS
  while (existsSync(lock) && !existsSync(join(dir, 'cli.js')) && Date.now() < deadline) {
    if (safely(() => ownerAlive(lock)) === false) return
    Atomics.wait(pause, 0, 0, 100)
  }
}

/** `read()`, or undefined when the lock went away meanwhile. */
function safely(read) {
  try {
    return read()
  } catch {
    return undefined
  }
}

async function bundle(key, dir) {
  const started = performance.now()
  // Bundling is the one step that runs TypeScript (the bundler's own code); only when the sources changed.
  const { register } = await import('tsx/esm/api')
  register()
  const { bundleCommands } = await import('./bundle/prebuilt.ts')
  const tmp = `${dir}.tmp-${process.pid}`
  await bundleCommands(ROOT, tmp)
  try {
    renameSync(tmp, dir)
  } catch {
    // Another process made the same bundle meanwhile: use it.
    rmSync(tmp, { recursive: true, force: true })
  }
  prune(key)
  process.stderr.write(
    `✓ bundled the commands into ${dir.slice(ROOT.length + 1)} (${Math.round(performance.now() - started)} ms)\n`,
  )
  return dir
}

/** Remove all but the newest bundles (and half-made ones of processes long gone). */
function prune(current) {
  const dirs = readdirSync(BIN)
    .filter((name) => name !== current && !name.endsWith('.lock'))
    .map((name) => ({ name, mtime: statSync(join(BIN, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)
  const hour = Date.now() - 3_600_000
  for (const [i, d] of dirs.entries())
    if (i >= KEEP || (d.name.includes('.tmp-') && d.mtime < hour))
      rmSync(join(BIN, d.name), { recursive: true, force: true })
}

/** Run `command` in this process, as if its bundle had been started directly. */
async function run(command, args) {
  const dir = await prebuilt()
  const entry = join(dir, `${command}.js`)
  if (!existsSync(entry)) {
    process.stderr.write(`✗ unknown command "${command}" (cli, dev, serve, keys, new)\n`)
    process.exit(2)
  }
  cacheCompiledCode(dir)
  process.argv = [process.argv[0], entry, ...args]
  await import(pathToFileURL(entry).href)
}

/**
 * Keep V8's compiled code of the bundle beside it (Node's compile cache), so
 * a command does not parse and compile its few megabytes of JavaScript on
 * every start: most of what starting a command costs once no TypeScript is
 * compiled. Its worker threads and child processes use it too (the variable).
 * The cache goes with its bundle when that is pruned.
 */
function cacheCompiledCode(dir) {
  const cache = join(dir, '.v8-cache')
  process.env.NODE_COMPILE_CACHE ??= cache
  module.enableCompileCache?.(process.env.NODE_COMPILE_CACHE)
}

/**
 * `--watch`: the command in a child process, restarted when a source changes
 * (content/ is the command's own business). A child that ends on its own
 * with an error (a bug in the code being edited) is started again at the next
 * code change, as `tsx watch` did; one that failed for the operator's reason
 * (a busy port, a bad setting) ends the watch too, with its exit code: it
 * sends this process SIGTERM as it exits (gateway/command.ts,
 * endWatchIfStartFails), as does SIGINT or SIGTERM from outside.
 */
async function watchAndRun(command, args) {
  await prebuilt()
  /** The running child, undefined while waiting for a code change; the last exit code. */
  let child
  let lastCode = 0
  let stopping = false
  // `npm run dev` processes images as they change: with glibc's arenas capped, as a build does
  // (build/core/allocator.ts, BUILD_MALLOC_ARENAS), set here since glibc reads it at start.
  const env =
    process.platform === 'linux' && !process.env.MALLOC_ARENA_MAX
      ? { ...process.env, MALLOC_ARENA_MAX: '2' }
      : process.env
  const start = () => {
    const started = spawn(process.execPath, [fileURLToPath(import.meta.url), command, ...args], {
      stdio: 'inherit',
      env,
    })
    child = started
    started.on('exit', (code, signal) => {
      if (child === started) child = undefined
      lastCode = code ?? (signal ? 1 : 0)
      if (stopping) process.exit(lastCode)
      if (started.restarting) return start()
      if (lastCode === 0) process.exit(0)
      process.stderr.write(`✗ ${command} exited with code ${lastCode}: waiting for a code change to start it again\n`)
    })
  }
  let timer
  const restart = () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      if (stopping) return
      process.stderr.write('↻ the code changed: restarting\n')
      if (!child) return start()
      child.restarting = true
      child.kill('SIGTERM')
    }, 100)
  }
  for (const dir of SOURCE_DIRS)
    watch(join(ROOT, dir), { recursive: true }, (_event, file) => {
      if (file && /\.(ts|js|css)$/.test(file) && !file.includes('/.') && !file.startsWith('.')) restart()
    })
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      stopping = true
      // With no child running (waiting for a code change, or it has just exited), end with its code.
      if (!child || child.exitCode !== null || child.signalCode !== null) process.exit(lastCode)
      child.kill(signal)
    })
  start()
}

const [first, ...rest] = process.argv.slice(2)
if (first === '--watch') await watchAndRun(rest[0], rest.slice(1))
else if (first) await run(first, rest)
else {
  process.stderr.write('usage: node build/run.mjs [--watch] <cli|dev|serve|keys|new> [args…]\n')
  process.exit(2)
}
