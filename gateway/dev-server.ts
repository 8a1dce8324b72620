/**
 * The dev server behind `npm run dev`: the compiler (build/compiler/) follows
 * content/ and every output it emits is swapped into the running gateway, so
 * the next request gets the new bytes without a restart. While the content
 * has errors, the last good output (or the last build in dist/) stays served.
 * /preview/ shows every item, drafts included, and the errors (preview/);
 * the editor at /admin/ edits the working tree through the local backend there.
 *
 * The gateway is the whole one, made by createGateway like every other
 * (settings, credentials, /mcp), over the compiler's output.
 *
 * @example const dev = await startDev({ root: '.', port: 0 }); await fetch(`${dev.url}/api/health`)
 */
import { join } from 'node:path'
import { Compiler, watchContent } from '../build/dev.ts'
import { readSettings, type Settings } from '../contract/settings.ts'
import { type ApiOrigin, localOrigin } from '../contract/api-origin.ts'
import { ArtifactStore } from './artifacts.ts'
import { checkSettings } from './config.ts'
import { createGateway, type Gateway, type Platform } from './gateway.ts'
import { silentLogger } from './log.ts'
import { editorPlugin } from './preview/editor-routes.ts'
import { previewPlugin } from './preview/routes.ts'
import type { RunningServer } from './server.ts'

export interface DevOptions {
  /** Project root holding content/. */
  root: string
  /** The gateway's settings (default: the schema's defaults for `npm run dev`). */
  settings?: Settings
  /** What the runtime knows (default: this process's folder for runtime data, a silent logger). */
  platform?: Partial<Omit<Platform, 'store' | 'routes'>>
  /** Listen here instead of HOST (tests). */
  host?: string
  /** Listen here instead of PORT; 0 for an ephemeral port (tests). */
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
}

export interface DevServer {
  url: string
  /** The origin its records name (contract/api-origin.ts): what a build of the same output is given. */
  apiOrigin: ApiOrigin
  store: ArtifactStore
  server: RunningServer
  /** Resolves when every change seen so far is served, fully emitted and written. */
  settled(): Promise<void>
  close(): Promise<void>
}

export async function startDev(options: DevOptions): Promise<DevServer> {
  const print = options.print ?? ((line: string) => console.error(line))
  const base = options.settings ?? readSettings({}, 'dev')
  const settings = { ...base, HOST: options.host ?? base.HOST, PORT: options.port ?? base.PORT }
  // Settings that do not go together stop the command before any compiling.
  checkSettings(settings)
  const distDir = options.distDir === false ? undefined : (options.distDir ?? join(options.root, 'dist'))
  const store = new ArtifactStore(distDir ?? join(options.root, 'dist'), { cacheMb: settings.FILE_CACHE_MB })
  // The records name this server's own origin: every URL loads from it (contract/api-origin.ts).
  const apiOrigin = localOrigin(settings)
  const compiler = await Compiler.open({ root: options.root, apiOrigin })
  // Until a build is served, health says why: the content's errors, not a missing dist/.
  store.explainEmpty(() => {
    const state = compiler.current()
    return state.ok
      ? undefined
      : `${state.errors.message}: nothing is served until ${state.errors.errors.length === 1 ? 'it is' : 'they are'} fixed (each error: the terminal, or /preview/)`
  })
  // The last good build on disk, if any, until the content is fixed.
  if (!compiler.current().ok && distDir)
    await store.reload().then(
      () => print(`! serving the previous build from ${distDir}`),
      () => undefined,
    )
  // Each output swapped in is a live build: its changes go out as webhooks (once the gateway is up).
  let gateway: Gateway | undefined
  const watcher = await watchContent(compiler, {
    distDir,
    debounceMs: options.debounceMs,
    settleMs: options.settleMs,
    offThread: options.offThread,
    print,
    onOutput: (output) => {
      store.swapFiles(output.manifest, output.files)
      gateway?.webhooks?.kick()
    },
    servingId: () => store.current()?.id,
  })
  let server: RunningServer
  try {
    gateway = await createGateway(settings, {
      root: process.cwd(),
      logger: silentLogger,
      ...options.platform,
      store,
      routes: [
        previewPlugin(compiler),
        editorPlugin(
          options.root,
          () => compiler.siteSettings()?.model.names ?? [],
          () => compiler.siteSettings()?.components ?? [],
        ),
      ],
    })
    server = await gateway.listen()
  } catch (error) {
    // A bad setting or a busy port: nothing may keep watching.
    await watcher.close()
    throw error
  }
  const running = gateway
  return {
    url: server.url,
    apiOrigin,
    store,
    server,
    settled: () => watcher.settled(),
    close: async () => {
      await watcher.close()
      await running.close()
    },
  }
}
