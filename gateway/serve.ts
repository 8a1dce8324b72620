#!/usr/bin/env node
/**
 * `npm start` (after the build): serve dist/ and the dynamic routes from one
 * local process, made by createGateway (gateway.ts). SIGHUP reloads dist/;
 * SIGTERM/SIGINT close gracefully. At the build's next release or expiry it
 * builds again and swaps (release/).
 */
import { createGateway } from './gateway.ts'
import { createLogger } from './log.ts'
import { closeOnSignals } from './command.ts'
import { runCli, type CliResult } from '../contract/cli.ts'
import { readSettings } from '../contract/settings.ts'

async function main(): Promise<CliResult> {
  const settings = readSettings(process.env, 'start')
  const log = createLogger(settings.LOG_LEVEL)
  const gateway = await createGateway(settings, {
    root: process.cwd(),
    logger: log,
    webhooks: true,
    releases: true,
  })
  const running = await gateway.listen()
  const { build } = gateway.store.current()!.manifest
  console.error(
    `✓ gateway (pid ${process.pid}) serving build ${build.id} at ${running.url}  (try ${running.url}/api/health; kill -HUP ${process.pid} reloads dist/)`,
  )
  if (settings.MCP_AUTH === 'off')
    console.error(`! MCP_AUTH=off: ${running.url}/mcp answers without credentials (loopback only)`)
  // Each build swapped in also goes out as webhooks (gateway/webhooks/), and its next release is waited for.
  process.on('SIGHUP', () => {
    gateway.reload().then(
      (s) => log('info', 'reloaded', { build_id: s.id }),
      (e: Error) => log('error', 'reload failed; still serving the previous build', { error: e.message }),
    )
  })
  // A stray rejection (a client hanging up mid-answer, say) is logged, not fatal:
  // one request's failure must not take every other request down with it.
  process.on('unhandledRejection', (reason) =>
    log('error', 'unhandled rejection', { error: reason instanceof Error ? reason.message : String(reason) }),
  )
  closeOnSignals((cause) => {
    log('info', 'shutting down', cause)
    return gateway.close()
  }, settings)
  return 'serving'
}

await runCli(main)
