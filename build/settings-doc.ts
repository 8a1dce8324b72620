#!/usr/bin/env node
/**
 * `npm run docs:settings`: write the settings table, generated from the
 * schema (contract/settings.ts), into README.md between its
 * `<!-- settings:start -->` and `<!-- settings:end -->` markers.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runCli } from '../contract/cli.ts'
import { settingsTable } from '../contract/settings.ts'

export const START = '<!-- settings:start -->'
export const END = '<!-- settings:end -->'

/** README text with the generated table between the markers. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(START)
  const end = readme.indexOf(END)
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} section`)
  return `${readme.slice(0, start + START.length)}\n${settingsTable()}\n${readme.slice(end)}`
}

if (process.argv[1] === import.meta.filename) {
  await runCli(async () => {
    const file = join(process.cwd(), 'README.md')
    await writeFile(file, withSettingsTable(await readFile(file, 'utf8')))
    console.error('✓ README.md settings table written from contract/settings.ts')
    return 0
  })
}
