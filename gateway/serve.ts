#!/usr/bin/env node
/**
 * `npm start` (after the build): serve dist/ and the dynamic routes from one
 * local process. SIGHUP reloads dist/; SIGTERM/SIGINT close gracefully. At
 * the build's next release or expiry it builds again and swaps (release/).
 */
import { ArtifactStore } from './artifacts.ts'
import { packageVersion, readConfig } from './config.ts'
import { createLogger } from './log.ts'
import { startServer } from './server.ts'
import { gatewayOptions } from './setup.ts'
import { closeOnSignals } from './command.ts'
import { startWebhooks } from './webhooks/service.ts'
import { startServeReleases } from './release/start.ts'
import { runCli, type CliResult } from '../contract/cli.ts'

async function main(): Promise<CliResult> {
  const config = readConfig(process.env, 'start')
  const log = createLogger(config.logLevel)
  const store = new ArtifactStore(config.distDir, { cacheMb: config.fileCacheMb })
  await store.reload()
  // Without PUBLIC_URL, links use the address we listen on (known exactly once listening).
  let listeningUrl = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`
  const options = await gatewayOptions(config, store, {
    version: packageVersion(),
    logger: log,
    fallbackUrl: () => listeningUrl,
  })
  const running = await startServer({ ...options, store, host: config.host, port: config.port })
  listeningUrl = running.url
  // Changes of each build it swaps in go out as webhooks (gateway/webhooks/).
  const webhooks = startWebhooks(config.webhooks, store, {
    logger: log,
    publicUrl: () => config.publicUrl ?? listeningUrl,
  })
  // Scheduled items are released (and expired ones taken down) at their time, without a restart.
  const releases = await startServeReleases({ store, log, distDir: config.distDir, onSwap: () => webhooks.kick() })
  const { build } = store.current()!.manifest
  console.error(
    `✓ gateway (pid ${process.pid}) serving build ${build.id} at ${running.url}  (try ${running.url}/api/health; kill -HUP ${process.pid} reloads dist/)`,
  )
  if (config.mcpAuth === 'off')
    console.error(`! MCP_AUTH=off: ${running.url}/mcp answers without credentials (loopback only)`)
  process.on('SIGHUP', () => {
    store.reload().then(
      (s) => {
        log('info', 'reloaded', { build_id: s.id })
        webhooks.kick()
        releases.arm()
      },
      (e: Error) => log('error', 'reload failed; still serving the previous build', { error: e.message }),
    )
  })
  // A stray rejection (a client hanging up mid-answer, say) is logged, not fatal:
  // one request's failure must not take every other request down with it.
  process.on('unhandledRejection', (reason) =>
    log('error', 'unhandled rejection', { error: reason instanceof Error ? reason.message : String(reason) }),
  )
  closeOnSignals((signal) => {
    log('info', 'shutting down', { signal })
    releases.close()
    return Promise.all([running.close(), webhooks.close()]).then(() => undefined)
  })
  return 'serving'
}

await runCli(main)
