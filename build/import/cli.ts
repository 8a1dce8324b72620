#!/usr/bin/env node
/**
 * `npm run import -- wordpress <export.xml>` and `npm run import -- ghost
 * <export.json>`: an export of another system as content of ours
 * (importer.ts), with a report of what was imported and skipped. Exit
 * codes (contract/cli.ts): 0 imported (items skipped are in the report), 1
 * the export or the project could not be read, 2 usage.
 */
import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { runCli, type CliResult } from '../../contract/cli.ts'
import { defineCommand, didYouMean, parseCommand, printHelp, usageOf } from '../../contract/cli-args.ts'
import { UsageError } from '../../contract/errors.ts'
import { SLUG_PATTERN } from '../../contract/patterns.ts'
import { ImportError } from './import-error.ts'
import { runImport } from './importer.ts'

const IMPORT = defineCommand({
  name: 'npm run import',
  summary:
    'Import a WordPress export (WXR) or a Ghost export (JSON) into content/, with a report of what was imported and skipped.',
  operands: '<wordpress|ghost> <export file>',
  positionals: 2,
  options: {
    root: { type: 'string', value: 'DIR', help: 'the project folder to import into (default: this one)' },
    'dry-run': { type: 'boolean', help: 'show what would be written, writing nothing' },
    force: { type: 'boolean', help: 'overwrite files edited since they were imported' },
    pages: {
      type: 'string',
      value: 'COLLECTION',
      help: 'the collection pages go to (default: pages, declared if missing)',
    },
    map: {
      type: 'string',
      multiple: true,
      value: 'TYPE=COLLECTION',
      help: 'the collection a post type goes to (custom post types are skipped without one)',
    },
    media: {
      type: 'string',
      value: 'DIR',
      help: "a copy of wp-content/uploads (or Ghost's content/images): images found there are copied beside their item",
    },
    'site-url': {
      type: 'string',
      value: 'URL',
      help: "the old site's address, for links and images (a WordPress export names it; a Ghost export does not)",
    },
  },
  more: `Examples:
  npm run import -- wordpress export.xml --media ./uploads --dry-run
  npm run import -- ghost my-site.ghost.json --pages pages --map post=blog-posts
Exit codes: 0 imported (what was skipped, and why, is in the report), 1 the export or the project could not be read, 2 usage.`,
})

const USAGE = `${usageOf(IMPORT)}   (\`npm run import -- --help\` lists the options)`
const KINDS = ['wordpress', 'ghost'] as const

function collectionName(value: string, option: string): string {
  if (!new RegExp(SLUG_PATTERN).test(value))
    throw new UsageError(`${option} "${value}" must be a collection name, like blog-posts`, USAGE)
  return value
}

async function main(argv: string[]): Promise<CliResult> {
  const args = parseCommand(IMPORT, argv)
  if (args.help) return printHelp(IMPORT)
  const [kind, file] = args.positionals
  if (!kind) throw new UsageError('the kind of export is needed: wordpress or ghost', USAGE)
  if (!(KINDS as readonly string[]).includes(kind))
    throw new UsageError(`unknown kind of export "${kind}"${didYouMean(kind, KINDS)}: wordpress or ghost`, USAGE)
  if (!file) throw new UsageError(`the export file is needed: npm run import -- ${kind} <export file>`, USAGE)
  const map: Record<string, string> = {}
  for (const pair of args.values.map ?? []) {
    const [type, collection] = pair.split('=')
    if (!type || !collection)
      throw new UsageError(`--map "${pair}" must be a post type and a collection: --map product=products`, USAGE)
    map[type] = collectionName(collection, '--map')
  }
  const root = resolve(args.values.root ?? '.')
  const path = resolve(file)
  if (!existsSync(path) || !statSync(path).isFile()) throw new ImportError(`${file}: no such file`)
  const media = args.values.media === undefined ? undefined : resolve(args.values.media)
  if (media && (!existsSync(media) || !statSync(media).isDirectory()))
    throw new ImportError(`--media ${args.values.media}: no such folder`)
  const site = args.values['site-url']
  if (site !== undefined && !/^https?:\/\/[^\s/]+/.test(site))
    throw new UsageError(`--site-url "${site}" must be an http(s) URL, like https://blog.example.com`, USAGE)
  const report = await runImport({
    root,
    kind: kind as (typeof KINDS)[number],
    file: path,
    dryRun: args.values['dry-run'] === true,
    force: args.values.force === true,
    pages: collectionName(args.values.pages ?? 'pages', '--pages'),
    map,
    media,
    site,
  })
  for (const line of report.print()) console.log(line)
  console.log(
    report.dryRun
      ? `✓ dry run: ${report.written.length} files would be written, nothing was`
      : `✓ imported: ${report.written.length} files written; npm run check passes on them`,
  )
  return 0
}

await runCli(() => main(process.argv.slice(2)))
