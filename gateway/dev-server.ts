/**
 * The dev server behind `npm run dev`: the compiler (build/compiler/) follows
 * content/ and every output it emits is swapped into the running gateway, so
 * the next request gets the new bytes without a restart. While the content
 * has errors, the last good output (or the last build in dist/) stays served.
 * /preview/ shows every item, drafts included, and the errors (preview/);
 * the editor at /admin/ edits the working tree through the local backend there.
 *
 * @example const dev = await startDev({ root: '.', port: 0 }); await fetch(`${dev.url}/api/health`)
 */
import { join } from 'node:path'
import { Compiler, watchContent } from '../build/dev.ts'
import type { GatewayOptions } from './app.ts'
import { ArtifactStore, Snapshot } from './artifacts.ts'
import { silentLogger } from './log.ts'
import { editorPlugin } from './preview/editor-routes.ts'
import { previewPlugin } from './preview/routes.ts'
import { startServer, type RunningServer } from './server.ts'

export interface DevOptions {
  /** Project root holding content/. */
  root: string
  host?: string
  /** 0 for an ephemeral port. */
  port?: number
  /** Where to write the build once changes settle; `false` keeps it in memory only. Default `<root>/dist`. */
  distDir?: string | false
  /** Quiet time that closes a burst of file events. */
  debounceMs?: number
  /** Quiet time before the whole-content outputs and the dist/ write. */
  settleMs?: number
  /** Run the whole-content outputs and the file watcher on worker threads (default: for 1,000 content files or more). */
  offThread?: boolean
  /** Where progress and content errors are printed (default stderr). */
  print?: (line: string) => void
  /** Gateway options (logger, limits, plugins), or a function making them for the store (plugins need it). */
  gateway?: GatewayExtras | ((store: ArtifactStore) => Promise<GatewayExtras>)
  /** Started over the store, told of each output swapped in, closed with the server (gateway/webhooks/service.ts). */
  webhooks?: (store: ArtifactStore) => { kick(): void; close(): Promise<void> }
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
  const store = new ArtifactStore(distDir ?? join(options.root, 'dist'))
  const compiler = await Compiler.open({ root: options.root })
  // The last good build on disk, if any, until the content is fixed.
  if (!compiler.current().ok && distDir)
    await store.reload().then(
      () => print(`! serving the previous build from ${distDir}`),
      () => undefined,
    )
  let webhooks: ReturnType<NonNullable<DevOptions['webhooks']>> | undefined
  const watcher = await watchContent(compiler, {
    distDir,
    debounceMs: options.debounceMs,
    settleMs: options.settleMs,
    offThread: options.offThread,
    print,
    onOutput: (output) => {
      store.swap(new Snapshot(output.manifest, output.files, store.cache))
      webhooks?.kick()
    },
    servingId: () => store.current()?.id,
  })
  webhooks = options.webhooks?.(store)
  const extras = typeof options.gateway === 'function' ? await options.gateway(store) : options.gateway
  const server = await startServer({
    version: '0.0.0-dev',
    logger: silentLogger,
    ...extras,
    plugins: [...(extras?.plugins ?? []), previewPlugin(compiler), editorPlugin(options.root)],
    store,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
  })
  return {
    url: server.url,
    store,
    server,
    settled: () => watcher.settled(),
    close: async () => {
      await watcher.close()
      await Promise.all([server.close(), webhooks?.close()])
    },
  }
}
