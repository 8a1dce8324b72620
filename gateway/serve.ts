#!/usr/bin/env node
/**
 * `npm start` (after the build): serve dist/ and the dynamic routes from one
 * local process, made by createGateway (gateway.ts). SIGHUP reloads dist/;
 * SIGTERM/SIGINT close gracefully. At the build's next release or expiry it
 * builds again and swaps (schedule/).
 */
import { createGateway } from './gateway.ts'
import { createLogger } from './log.ts'
import { closeOnSignals } from './command.ts'
import { runCli, type CliResult } from '../contract/cli.ts'
import { defineCommand, parseCommand, printHelp } from '../contract/cli-args.ts'
import { deprecations, readSettings } from '../contract/settings.ts'

const START = defineCommand({
  name: 'npm start',
  summary:
    'Build dist/ (as npm run build does), then serve it with the API, MCP and OAuth on http://127.0.0.1:8787 until stopped (Ctrl-C). kill -HUP <pid> reloads dist/.',
  options: {},
  more: 'Settings (PORT, HOST, LOG_LEVEL, …) come from the environment: docs/operating.md lists them.',
})

async function main(argv: string[]): Promise<CliResult> {
  if (parseCommand(START, argv).help) return printHelp(START)
  const settings = readSettings(process.env, 'start')
  const log = createLogger(settings.LOG_LEVEL)
  for (const line of deprecations(process.env)) log('warn', line)
  const gateway = await createGateway(settings, {
    root: process.cwd(),
    logger: log,
    webhooks: true,
    schedule: true,
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

await runCli(() => main(process.argv.slice(2)))
