#!/usr/bin/env node
/**
 * `tsx build/deploy/netlify-settings.ts <shared.json> <site.json>` (or one listing on
 * stdin): the deploy job's check of a Netlify site's environment against the
 * settings schema, as the production function will read it (contract/settings.ts,
 * runtime `netlify`), before anything is deployed. The files are the Netlify
 * API's listings, the team's shared variables first, then the site's
 * (`netlify api getEnvVars`, `netlify api getSiteEnvVars`; build/deploy/netlify-env.ts).
 *
 * A variable marked secret on Netlify has a write-only value: the API does not
 * give it. For a secret, that it is set for the production context with the
 * functions scope is checked, not its value, and a line says so; a readable
 * value is validated. Never prints a value.
 *
 * WEBHOOK_SECRETS_KEY is not required: the gateway function never reads it, and
 * the webhook functions need it only to sign for a subscription (they fan out
 * and queue without it). A subscription on the site can only be made with the
 * key (the keys CLI seals its secret), so a site without one has webhooks off:
 * the check says so in a line, and a subscription's messages would wait queued
 * (with an error in the functions' log) until the key is set.
 * Exit codes (contract/cli.ts): 0 valid, 1 a bad or missing setting, 2 usage.
 */
import { readFile } from 'node:fs/promises'
import { runCli } from '../../contract/cli.ts'
import { checkSettings, readSettings, SETTINGS, SettingsError, type SettingName } from '../../contract/settings.ts'
import { parseListing, productionFunctionEnv } from './netlify-env.ts'

const WEBHOOKS_OFF =
  "WEBHOOK_SECRETS_KEY is not set: webhooks are off on this site (the webhook functions cannot sign, so a subscription's messages would wait queued); to use them set the key the keys CLI uses for the site's Blobs (`npm run keys -- webhook secrets-key` prints one)"

async function main(files: string[]): Promise<number> {
  const texts = files.length > 0 ? await Promise.all(files.map((f) => readFile(f, 'utf8'))) : [await stdin()]
  const env = productionFunctionEnv(texts.map(parseListing))
  const hidden = new Set([...env.hidden].filter((key): key is SettingName => Object.hasOwn(SETTINGS, key)))
  try {
    checkSettings(env.readable, 'netlify', hidden)
  } catch (error) {
    // A required setting that is on the site, but not where the function reads it: say where it is.
    const where = error instanceof SettingsError ? env.elsewhere.get(error.setting) : undefined
    if (!where || !(error instanceof SettingsError)) throw error
    throw new SettingsError(
      error.setting,
      `${error.message}. It is set on the site, but not for the production context with the functions scope (${where})`,
    )
  }
  for (const name of hidden)
    console.error(
      `✓ ${name} is set for production's functions as a secret: Netlify does not show its value, so that it is set was checked, not the value`,
    )
  if (!env.readable.WEBHOOK_SECRETS_KEY && !hidden.has('WEBHOOK_SECRETS_KEY')) {
    console.error(`! ${WEBHOOKS_OFF}`)
    if (readSettings({ GITHUB_ACTIONS: process.env.GITHUB_ACTIONS }, 'cli').GITHUB_ACTIONS)
      console.log(`::warning title=WEBHOOK_SECRETS_KEY::${WEBHOOKS_OFF}`)
  }
  console.error("✓ the site's environment has what the Netlify function needs")
  return 0
}

async function stdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

await runCli(() => main(process.argv.slice(2)))
