#!/usr/bin/env node
/**
 * `netlify env:list --json … | tsx build/netlify-settings.ts`: the deploy job's
 * check of a Netlify site's environment against the settings schema, as the
 * function will read it (contract/settings.ts, runtime `netlify`), before
 * anything is deployed. Prints one line (two when webhooks are off); never a value.
 *
 * WEBHOOK_SECRETS_KEY is not required: the gateway function never reads it, and
 * the webhook functions need it only to sign for a subscription (they fan out
 * and queue without it). A subscription on the site can only be made with the
 * key (the keys CLI seals its secret), so a site without one has webhooks off:
 * the check says so in a line, and a subscription's messages would wait queued
 * (with an error in the functions' log) until the key is set.
 * Exit codes (contract/cli.ts): 0 valid, 1 a bad or missing setting, 2 usage.
 */
import { runCli } from '../contract/cli.ts'
import { UsageError } from '../contract/errors.ts'
import { readSettings } from '../contract/settings.ts'

const WEBHOOKS_OFF =
  "WEBHOOK_SECRETS_KEY is not set: webhooks are off on this site (the webhook functions cannot sign, so a subscription's messages would wait queued); to use them set the key the keys CLI uses for the site's Blobs (`npm run keys -- webhook secrets-key` prints one)"

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
  const site = readSettings(strings, 'netlify')
  if (site.WEBHOOK_SECRETS_KEY === undefined) {
    console.error(`! ${WEBHOOKS_OFF}`)
    if (readSettings({ GITHUB_ACTIONS: process.env.GITHUB_ACTIONS }, 'cli').GITHUB_ACTIONS)
      console.log(`::warning title=WEBHOOK_SECRETS_KEY::${WEBHOOKS_OFF}`)
  }
  console.error("✓ the site's environment has what the Netlify function needs")
  return 0
}

await runCli(main)
