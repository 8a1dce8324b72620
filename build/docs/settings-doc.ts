#!/usr/bin/env node
/**
 * `npm run docs:settings`: write the settings table, generated from the
 * schema (contract/settings.ts), into docs/operating.md between its
 * `<!-- settings:start -->` and `<!-- settings:end -->` markers.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runCli } from '../../contract/cli.ts'
import { defineCommand, parseCommand, printHelp } from '../../contract/cli-args.ts'
import { settingsTable } from '../../contract/settings.ts'

export const START = '<!-- settings:start -->'
export const END = '<!-- settings:end -->'

/** The page that holds the table, relative to the project root. */
export const SETTINGS_PAGE = 'docs/operating.md'

/** The page's text with the generated table between the markers. */
export function withSettingsTable(page: string): string {
  const start = page.indexOf(START)
  const end = page.indexOf(END)
  if (start < 0 || end < start) throw new Error(`${SETTINGS_PAGE} has no ${START} … ${END} section`)
  return `${page.slice(0, start + START.length)}\n${settingsTable()}\n${page.slice(end)}`
}

const SETTINGS_DOC = defineCommand({
  name: 'npm run docs:settings',
  summary: `Write the settings table, generated from contract/settings.ts, into ${SETTINGS_PAGE}.`,
  options: {},
})

if (process.argv[1] === import.meta.filename) {
  await runCli(async () => {
    if (parseCommand(SETTINGS_DOC, process.argv.slice(2)).help) return printHelp(SETTINGS_DOC)
    const file = join(process.cwd(), SETTINGS_PAGE)
    await writeFile(file, withSettingsTable(await readFile(file, 'utf8')))
    console.error(`✓ ${SETTINGS_PAGE} settings table written from contract/settings.ts`)
    return 0
  })
}
