/**
 * The author's watch mode behind `npm run dev`: compile content/ once, serve it
 * with the gateway from memory, and on every edit recompile only that file,
 * re-render what depends on it and swap the new build in, without a restart.
 * An invalid edit prints its file:line:col errors and the last good build
 * stays served. dist/ is rewritten (atomically) once changes settle.
 */
import { join } from 'node:path'
import { watch, type FSWatcher } from 'chokidar'
import type { BuiltContent } from './emit/types.ts'
import { writeDistAtomically } from './emit/write.ts'
import { hashInputs } from './pipeline/run.ts'
import { classify, ContentState, type ContentPath } from './watch/content-state.ts'
import { DevArtifacts } from './watch/dev-artifacts.ts'
import { ArtifactStore } from '../gateway/artifacts.ts'
import type { GatewayOptions } from '../gateway/app.ts'
import { silentLogger } from '../gateway/log.ts'
import { startServer, type RunningServer } from '../gateway/server.ts'

/**
 * chokidar drops a file's 'change' events for 50 ms after one it emits (and
 * any within 5 ms of another): an author's second save inside that window is
 * never reported. So every event also re-reads its file once the window has
 * passed; unchanged content costs only that read.
 */
const RECHECK_MS = 100
/**
 * The safety net for events that never arrive at all (an overflowing inotify
 * queue, a file replaced from outside): every file's stat, compared with the
 * one taken when it was read, while nothing else is going on.
 */
const RESCAN_MS = 5000

export interface DevOptions {
  /** Project root holding content/. */
  root: string
  host?: string
  /** 0 for an ephemeral port. */
  port?: number
  /** Where to write the build once changes settle; `false` keeps it in memory only. Default `<root>/dist`. */
  distDir?: string | false
  /** Quiet time that closes a burst of file events (editors write in several steps). */
  debounceMs?: number
  /** Quiet time before the full pass (search index, documents, manifest) and the dist/ write. */
  settleMs?: number
  /** Where progress and content errors are printed (default stderr). */
  print?: (line: string) => void
  /** Gateway options (logger, limits, plugins), or a function making them for the store (plugins need it). */
  gateway?: GatewayExtras | ((store: ArtifactStore) => Promise<GatewayExtras>)
}

type GatewayExtras = Partial<Omit<GatewayOptions, 'store'>>

export interface DevServer {
  url: string
  store: ArtifactStore
  server: RunningServer
  /** Resolves when every change seen so far is served, fully emitted and written. */
  settled(): Promise<void>
  close(): Promise<void>
}

export async function startDev(options: DevOptions): Promise<DevServer> {
  const print = options.print ?? ((line: string) => console.error(line))
  const distDir = options.distDir === false ? undefined : (options.distDir ?? join(options.root, 'dist'))
  const debounceMs = options.debounceMs ?? 10
  const settleMs = options.settleMs ?? 1000
  const store = new ArtifactStore(distDir ?? join(options.root, 'dist'))
  const artifacts = new DevArtifacts()

  let started = performance.now()
  const state = await ContentState.open(options.root)
  let good: BuiltContent | undefined
  let complete = false
  const first = state.assemble()
  if (first.ok) {
    good = first.content
    artifacts.update(good, first.changed)
    store.swap((await artifacts.complete(good, await hashInputs(options.root, state.sources())))!)
    complete = true
    print(`✓ built ${Object.keys(artifacts.files()).length} files in memory (${elapsed(started)})`)
  } else {
    reportErrors(print, first.errors.errors, undefined)
    // The last good build on disk, if any, until the content is fixed.
    if (distDir) await store.reload().then(() => print(`! serving the previous build from ${distDir}`), () => undefined)
  }

  // One change at a time, in order; file events queue up while one is applied.
  let queue: Promise<void> = Promise.resolve()
  let pending = new Map<string, ContentPath>()
  let debounce: NodeJS.Timeout | undefined
  let settle: NodeJS.Timeout | undefined
  /** Timers armed and not yet fired. */
  const armed = { debounce: false, settle: false }
  let settling: Promise<void> = Promise.resolve()

  const apply = async () => {
    const paths = [...pending.values()]
    pending = new Map()
    if (!paths.length) return
    started = performance.now()
    const outcome = await state.apply(paths)
    if (!outcome) {
      // Nothing differs from what is compiled (a recheck, a touch); a full pass this interrupted comes back.
      if (good && !complete && !armed.settle) scheduleSettle()
      return
    }
    const names = outcome.files.join(', ')
    if (!outcome.ok) {
      reportErrors(print, outcome.errors.errors, store.current()?.id)
      return
    }
    good = outcome.content
    complete = false
    store.swap(artifacts.update(good, outcome.changed))
    print(`✓ ${names} → serving build ${store.current()!.id} (${elapsed(started)})`)
    scheduleSettle()
  }

  const scheduleSettle = () => {
    clearTimeout(settle)
    armed.settle = true
    settle = setTimeout(() => {
      armed.settle = false
      settling = queue = queue.then(finish).catch((error: unknown) => print(`✗ ${String(error)}`))
    }, settleMs)
  }

  /** The full pass: every other emitter, the manifest file, then dist/. */
  const finish = async () => {
    if (!good || complete || pending.size) return
    // Files the watcher never reported go in first; their own settle brings the full pass back.
    const missed = await state.stale()
    if (missed.length) return missed.forEach(enqueue)
    const t = performance.now()
    // An edit arriving meanwhile goes first; its own settle brings the full pass back.
    const snapshot = await artifacts.complete(good, await hashInputs(options.root, state.sources()), () => armed.debounce || pending.size > 0)
    if (!snapshot) return
    store.swap(snapshot)
    complete = true
    print(`✓ full build ${snapshot.id}: search index, documents and manifest (${elapsed(t)})${distDir ? '; writing dist/' : ''}`)
    if (distDir) writeDist(distDir)
  }

  /** Writes go one after another, each with the files of its moment, off the edit queue. */
  let writing: Promise<void> = Promise.resolve()
  const writeDist = (dir: string) => {
    const files = artifacts.files()
    writing = writing.then(() => writeDistAtomically(dir, files)).catch((error: unknown) => print(`✗ writing ${dir}: ${String(error)}`))
  }

  const enqueue = (path: ContentPath) => {
    pending.set(key(path), path)
    clearTimeout(debounce)
    armed.debounce = true
    debounce = setTimeout(() => {
      armed.debounce = false
      queue = queue.then(apply).catch((error: unknown) => print(`✗ ${String(error)}`))
    }, debounceMs)
  }

  /** Rechecks armed per file, each RECHECK_MS after that file's latest event. */
  const rechecks = new Map<string, NodeJS.Timeout>()
  const onEvent = (file: string) => {
    const path = classify(options.root, file)
    if (!path) return
    enqueue(path)
    clearTimeout(rechecks.get(key(path)))
    rechecks.set(key(path), setTimeout(() => rechecks.delete(key(path)) && enqueue(path), RECHECK_MS))
  }

  const rescan = () => {
    queue = queue
      .then(async () => (await state.stale()).forEach(enqueue))
      .catch((error: unknown) => print(`✗ ${String(error)}`))
  }

  const watcher: FSWatcher = watch(join(options.root, 'content'), { ignoreInitial: true, depth: 2 })
  watcher.on('add', onEvent).on('change', onEvent).on('unlink', onEvent)
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
  // Edits made while the first build ran, before the watcher was ready.
  rescan()
  const rescanTimer = setInterval(() => pending.size || armed.debounce || armed.settle || rescan(), RESCAN_MS).unref()

  if (distDir && good) writeDist(distDir)
  const server = await startServer({
    version: '0.0.0-dev',
    logger: silentLogger,
    ...(typeof options.gateway === 'function' ? await options.gateway(store) : options.gateway),
    store,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
  })
  return {
    url: server.url,
    store,
    server,
    settled: async () => {
      // Wait out the timers: pending events, then the full pass they schedule.
      for (;;) {
        await queue
        await settling
        await writing
        if (!armed.debounce && !armed.settle && !pending.size && !rechecks.size) return
        await new Promise((r) => setTimeout(r, 5))
      }
    },
    close: async () => {
      clearTimeout(debounce)
      clearTimeout(settle)
      clearInterval(rescanTimer)
      rechecks.forEach((timer) => clearTimeout(timer))
      await watcher.close()
      await server.close()
      await queue.catch(() => undefined)
      await writing
    },
  }
}

function key(path: ContentPath): string {
  return path.kind === 'site' ? 'site' : path.path
}

function reportErrors(print: (line: string) => void, errors: readonly Error[], servingId: string | undefined): void {
  for (const error of errors) print(error.message)
  const count = `${errors.length} content error${errors.length === 1 ? '' : 's'}`
  print(servingId ? `✗ ${count}; still serving build ${servingId}` : `✗ ${count}; nothing to serve until they are fixed`)
}

function elapsed(started: number): string {
  return `${Math.round(performance.now() - started)} ms`
}
