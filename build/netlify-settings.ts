#!/usr/bin/env node
/**
 * `netlify env:list --json … | tsx build/netlify-settings.ts`: the deploy job's
 * check of a Netlify site's environment against the settings schema, as the
 * function will read it (contract/settings.ts, runtime `netlify`), before
 * anything is deployed. Prints one line; never a value.
 * Exit codes (contract/cli.ts): 0 valid, 1 a bad or missing setting, 2 usage.
 */
import { runCli } from '../contract/cli.ts'
import { UsageError } from '../contract/errors.ts'
import { readSettings } from '../contract/settings.ts'

async function main(): Promise<number> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  let env: unknown
  try {
    env = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw new UsageError('expected the JSON of `netlify env:list --json` on stdin')
  }
  if (!env || typeof env !== 'object' || Array.isArray(env))
    throw new UsageError('expected the JSON of `netlify env:list --json` on stdin')
  const strings = Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === 'string')) as Record<
    string,
    string
  >
  readSettings(strings, 'netlify')
  console.error("✓ the site's environment has what the Netlify function needs")
  return 0
}

await runCli(main)
