#!/usr/bin/env node
/**
 * `npm run dev [-- --root DIR]`: the dev server (gateway/dev-server.ts) with
 * the full gateway on http://127.0.0.1:8787 (PORT, HOST and the other settings
 * as for `npm start`; request logs only at LOG_LEVEL=info). `--root` serves
 * another project folder (its content/; DIST_DIR is written there, while the
 * runtime data — keys, clients, the issuer's state — stays this folder's). The
 * npm script runs this prebuilt under `build/run.mjs --watch`, so an edit to the
 * schemas or the code restarts it; content edits never do.
 */
import { resolve } from 'node:path'
import { createLogger } from './log.ts'
import { startDev } from './dev-server.ts'
import { closeOnSignals, endWatchIfStartFails } from './command.ts'
import { runCli, type CliResult } from '../contract/cli.ts'
import { defineCommand, parseCommand, printHelp } from '../contract/cli-args.ts'
import { deprecations, readSettings } from '../contract/settings.ts'

const DEV = defineCommand({
  name: 'npm run dev',
  summary:
    'Serve content/ as you edit it, with the full gateway on http://127.0.0.1:8787; a change to the code restarts it.',
  options: {
    root: {
      type: 'string',
      value: 'DIR',
      help: "serve another project folder's content/ (the runtime data stays this folder's)",
    },
  },
  more: 'Settings (PORT, HOST, LOG_LEVEL, …) as for npm start: docs/operating.md lists them.',
})

async function main(argv: string[]): Promise<CliResult> {
  const args = parseCommand(DEV, argv)
  if (args.help) return printHelp(DEV)
  const root = resolve(args.values.root ?? '.')
  const settings = readSettings(process.env, 'dev')
  for (const line of deprecations(process.env)) console.error(`! ${line}`)
  const dev = await startDev({
    root,
    settings,
    platform: {
      root: process.cwd(),
      logger: createLogger(settings.LOG_LEVEL),
      webhooks: true,
    },
    distDir: resolve(root, settings.DIST_DIR),
  })
  console.error(
    `✓ watching ${root === process.cwd() ? 'content/' : `${root}/content/`}; the gateway (pid ${process.pid}) serves every edit at ${dev.url}  (try ${dev.url}/api/health)`,
  )
  closeOnSignals(() => dev.close(), settings)
  return 'serving'
}

await runCli(endWatchIfStartFails(() => main(process.argv.slice(2))))
