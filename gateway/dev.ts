#!/usr/bin/env node
/**
 * `npm run dev [-- --root DIR]`: the dev server (gateway/dev-server.ts) with
 * the full gateway on http://127.0.0.1:8787 (PORT, HOST and the other settings
 * as for `npm start`; request logs only at LOG_LEVEL=info). `--root` serves
 * another project folder (its content/; dist/ written there). The npm script
 * runs this prebuilt under `build/run.mjs --watch`, so an edit to the schemas
 * or the code restarts it; content edits never do.
 */
import { resolve } from 'node:path'
import { packageVersion, readConfig } from './config.ts'
import { createLogger } from './log.ts'
import { gatewayOptions } from './setup.ts'
import { startDev } from './dev-server.ts'
import { closeOnSignals, endWatchIfStartFails } from './command.ts'
import { startWebhooks } from './webhooks/service.ts'
import { runCli, type CliResult } from '../contract/cli.ts'
import { UsageError } from '../contract/errors.ts'

const USAGE = 'usage: npm run dev [-- --root DIR]'

async function main(argv: string[]): Promise<CliResult> {
  const rootAt = argv.indexOf('--root')
  if (argv.some((a, i) => a !== '--root' && i !== rootAt + 1) || (rootAt >= 0 && !argv[rootAt + 1]))
    throw new UsageError(USAGE)
  const root = resolve(rootAt >= 0 ? argv[rootAt + 1]! : '.')
  const config = readConfig(process.env, 'dev')
  const logger = createLogger(config.logLevel)
  const version = packageVersion()
  let url = `http://${config.host}:${config.port}`
  const dev = await startDev({
    root,
    host: config.host,
    port: config.port,
    // Runtime data (keys, clients) stays the gateway's; the build goes to the project's dist/ unless DIST_DIR says otherwise.
    distDir: process.env.DIST_DIR ? config.distDir : resolve(root, 'dist'),
    gateway: async (store) => gatewayOptions(config, store, { version, logger, fallbackUrl: () => url }),
    webhooks: (store) => startWebhooks(config.webhooks, store, { logger, publicUrl: () => config.publicUrl ?? url }),
  })
  url = dev.url
  console.error(
    `✓ watching ${root === process.cwd() ? 'content/' : `${root}/content/`}; the gateway (pid ${process.pid}) serves every edit at ${dev.url}  (try ${dev.url}/api/health)`,
  )
  closeOnSignals(() => dev.close())
  return 'serving'
}

await runCli(endWatchIfStartFails(() => main(process.argv.slice(2))))
