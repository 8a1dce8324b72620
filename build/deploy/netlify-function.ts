#!/usr/bin/env node
/**
 * Bundle the gateway's Netlify Function (gateway/netlify/gateway.ts) with
 * tsup into one self-contained ES module, `netlify-functions/gateway.mjs`
 * (git-ignored; netlify.toml points at it). One file with no node_modules
 * left to resolve, so what the local emulation runs is what gets deployed.
 * Beside it, the webhook sender's two functions (gateway/netlify/webhooks-*.ts):
 * `deploy-succeeded-background`, which Netlify runs after each deploy by its
 * name, and `webhooks-scheduled`; the scheduled function that sweeps the
 * expired authorization state out of Netlify Blobs
 * (gateway/netlify/oauth-sweep-scheduled.ts); and `publish-scheduled`, which
 * calls the build hook when a scheduled release or expiry is due
 * (gateway/netlify/publish-scheduled.ts).
 */
import { mkdir, rename, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { bundleEntry } from '../bundle/tsup.ts'
import { FUNCTION_NAME } from '../../contract/public-paths.ts'
import { runCli } from '../../contract/cli.ts'
import { defineCommand, parseCommand, printHelp } from '../../contract/cli-args.ts'

export const FUNCTIONS_DIR = 'netlify-functions'

/** The functions beside the gateway: bundle name (Netlify's function name) → entry. */
export const SIDE_FUNCTIONS = {
  'deploy-succeeded-background': 'gateway/netlify/webhooks-deploy.ts',
  'webhooks-scheduled': 'gateway/netlify/webhooks-scheduled.ts',
  'oauth-sweep-scheduled': 'gateway/netlify/oauth-sweep-scheduled.ts',
  'publish-scheduled': 'gateway/netlify/publish-scheduled.ts',
} as const

/** Bundle from the project at `root` into `<outRoot>/netlify-functions/`; returns the gateway's file. */
export async function bundleFunction(root: string, outRoot = root): Promise<string> {
  const outDir = join(outRoot, FUNCTIONS_DIR)
  const gateway = await bundleEntry({ root, entry: 'gateway/netlify/gateway.ts', outDir, name: FUNCTION_NAME })
  // Each bundle cleans its folder: the others are made apart and moved in.
  for (const [name, entry] of Object.entries(SIDE_FUNCTIONS)) {
    const apart = join(outRoot, '.cache', 'netlify-functions', name)
    const file = await bundleEntry({ root, entry, outDir: apart, name })
    await mkdir(outDir, { recursive: true })
    await rename(file, join(outDir, `${name}.mjs`))
    await rm(apart, { recursive: true, force: true })
  }
  return gateway
}

const NETLIFY = defineCommand({
  name: 'npm run build:netlify',
  summary: `Bundle the gateway's Netlify Function and the functions beside it into ${FUNCTIONS_DIR}/ (netlify.toml points at it).`,
  options: {},
})

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await runCli(async () => {
    if (parseCommand(NETLIFY, process.argv.slice(2)).help) return printHelp(NETLIFY)
    const started = performance.now()
    const file = await bundleFunction(process.cwd())
    console.log(
      `✓ bundled the gateway function into ${file}, and ${Object.keys(SIDE_FUNCTIONS).join(', ')} beside it (${Math.round(performance.now() - started)} ms)`,
    )
    return 0
  })
}
