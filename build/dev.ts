#!/usr/bin/env node
/**
 * `npm run dev`: the watch mode (build/watch.ts) with the full gateway on
 * http://127.0.0.1:8787 (PORT, HOST and the other settings as for `npm start`;
 * request logs only at LOG_LEVEL=info). The npm script runs this under
 * `tsx watch`, so an edit to the schemas or the code restarts it; content
 * edits never do.
 */
import { ConfigError, packageVersion, readConfig } from '../gateway/config.ts'
import { createLogger } from '../gateway/log.ts'
import { PortInUseError } from '../gateway/server.ts'
import { gatewayOptions } from '../gateway/setup.ts'
import { startDev } from './watch.ts'
import { closeOnSignals, fail, runCommand } from '../gateway/command.ts'

async function main(): Promise<number> {
  let config
  try {
    config = readConfig({ LOG_LEVEL: 'warn', ...process.env })
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message)
    throw error
  }
  const logger = createLogger(config.logLevel)
  const version = packageVersion()
  let url = `http://${config.host}:${config.port}`
  let dev
  try {
    dev = await startDev({
      root: process.cwd(),
      host: config.host,
      port: config.port,
      distDir: config.distDir,
      gateway: async (store) => gatewayOptions(config, store, { version, logger, fallbackUrl: () => url }),
    })
  } catch (error) {
    if (error instanceof PortInUseError) return fail(error.message)
    throw error
  }
  url = dev.url
  console.error(`✓ watching content/; the gateway serves every edit at ${dev.url}  (try ${dev.url}/api/health)`)
  closeOnSignals(() => dev.close())
  return -1
}

await runCommand(main)
