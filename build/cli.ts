#!/usr/bin/env node
/**
 * Command line of the build: `build` writes dist/, `check` only validates.
 * Exit codes (contract/cli.ts): 0 ok, 1 content errors or a bad setting, 2 usage.
 */
import { resolve } from 'node:path'
import { ContentErrors, toGithubAnnotation } from './core/errors.ts'
import { upToDateManifest } from './compiler/inputs.ts'
import { hasImageFiles, restartWithCappedArenas } from './core/allocator.ts'
import { runCli, type CliResult } from '../contract/cli.ts'
import { defineCommand, didYouMean, type CommandSpec, parseCommand, printHelp } from '../contract/cli-args.ts'
import { UsageError } from '../contract/errors.ts'
import { readSettings } from '../contract/settings.ts'
import { buildOrigin } from '../contract/api-origin.ts'
import { settingsClock } from './pipeline/schedule.ts'
import type { WithheldItem } from './compiler/build.ts'

const ROOT = {
  type: 'string',
  value: 'DIR',
  help: 'the project folder whose content/ to read (default: this one)',
} as const

const COMMANDS = {
  build: defineCommand({
    name: 'npm run build',
    summary: 'Compile content/ into dist/; nothing is done when dist/ is up to date with the content and the code.',
    options: {
      root: ROOT,
      force: { type: 'boolean', help: 'build even when dist/ is up to date' },
      'no-cache': { type: 'boolean', help: 'render every body and image again instead of reusing .cache/' },
    },
    more: 'Exit codes: 0 built, 1 content errors (each with its file and line) or a bad setting, 2 usage.',
  }),
  check: defineCommand({
    name: 'npm run check',
    summary: 'Validate content/ as the build does, writing nothing.',
    options: { root: ROOT },
    more: 'Exit codes: 0 valid, 1 content errors (each with its file and line) or a bad setting, 2 usage.',
  }),
}

async function main(argv: string[]): Promise<CliResult> {
  const [command, ...rest] = argv
  if (command !== 'build' && command !== 'check')
    throw new UsageError(
      command
        ? `unknown command "${command}"${didYouMean(command, Object.keys(COMMANDS))}`
        : 'a command is needed: build or check',
    )
  const spec: CommandSpec = COMMANDS[command]
  const args = parseCommand(spec, rest)
  if (args.help) return printHelp(spec)
  const flag = (name: 'force' | 'no-cache') => args.values[name] === true
  const root = resolve(typeof args.values.root === 'string' ? args.values.root : '.')
  const settings = readSettings(process.env, 'build')
  const { BUILD_THREADS, REQUIRE_HISTORY, GITHUB_ACTIONS } = settings
  // PUBLIC_URL, or the local gateway's address for `npm start`'s build; else site.yaml's api_url.
  const apiOrigin = buildOrigin(settings)
  const threads = BUILD_THREADS === 'auto' ? undefined : BUILD_THREADS
  const requireHistory = REQUIRE_HISTORY === 'on'

  const started = performance.now()
  const elapsed = () => `${Math.round(performance.now() - started)} ms`
  try {
    if (command === 'check') {
      const { checkContent } = await import('./compiler/build.ts')
      const { files, withheld } = await checkContent(root, { threads, requireHistory })
      console.log(`✓ ${files} content files valid (${elapsed()})`)
      for (const line of withheldLines(withheld)) console.log(line)
      return 0
    }
    // Nothing to do is answered before the compile pipeline (unified, ajv, emitters) is even loaded
    // (unless the history must be checked: an up-to-date dist/ may have been built without it).
    const current =
      flag('force') || requireHistory ? undefined : await upToDateManifest(root, undefined, undefined, apiOrigin)
    // A build to do, with images: under the allocator images need (core/allocator.ts), checked up to date already.
    if (!current && hasImageFiles(root)) restartWithCappedArenas(flag('force') ? [] : ['--force'])
    const report = current
      ? ({ manifest: current, upToDate: true, warnings: [], siteWarnings: [] } as const)
      : await (await import('./compiler/build.ts')).buildSite({
          root,
          force: true,
          cache: !flag('no-cache'),
          threads,
          requireHistory,
          apiOrigin,
        })
    for (const warning of report.warnings) {
      console.error(`! ${warning}`)
      if (GITHUB_ACTIONS) console.log(`::warning title=Change feed::${warning}`)
    }
    for (const warning of report.siteWarnings) {
      console.error(`! ${warning}`)
      if (GITHUB_ACTIONS) console.log(`::warning file=content/site.yaml,title=content/site.yaml::${warning}`)
    }
    const { id, counts } = report.manifest.build
    const summary = Object.entries(counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')
    const next = report.manifest.build.next_release_at
    const release = next ? `; next release or expiry ${next}` : ''
    console.log(
      report.upToDate
        ? `✓ dist/ is up to date (build ${id}; ${summary}${release}) (${elapsed()})`
        : `✓ built ${report.files} files into dist/ (build ${id}; ${summary}${release}) (${elapsed()})`,
    )
    if (!report.upToDate) for (const line of withheldLines(report.withheld)) console.log(line)
    return 0
  } catch (error) {
    if (!(error instanceof ContentErrors)) throw error
    // Each error with a code frame, GitHub annotations under Actions, then the summary.
    const { codeFrame } = await import('./core/code-frame.ts')
    for (const e of error.errors) {
      console.error(e.message)
      const frame = await codeFrame(root, e)
      if (frame) console.error(frame)
    }
    if (GITHUB_ACTIONS) for (const e of error.errors) console.log(toGithubAnnotation(e))
    console.error(`✗ ${error.message}; ${command === 'build' ? 'dist/ was left as it was' : 'nothing was written'}`)
    return error.exitCode
  }
}

/**
 * The items scheduled or expired, one line each: what an author checks before
 * a launch. A translation's time is its item's when that is later (or, for an
 * expiry, sooner) than its own: the line says so.
 */
function withheldLines(items: readonly WithheldItem[]): string[] {
  const now = settingsClock()()
  return items.map(({ path, state, at, item }) => {
    const bound = item ? `, with its item ${item}` : ''
    return state === 'scheduled'
      ? `  scheduled  ${path}  publishes at ${at} (${distance(Date.parse(at) - now)})${bound}`
      : `  expired    ${path}  since ${at}${bound}`
  })
}

/** `in 3 days`, `in 5 hours`, `in 12 minutes` from the build's clock. */
function distance(ms: number): string {
  const minutes = Math.ceil(ms / 60_000)
  if (minutes < 120) return `in ${minutes} minute${minutes === 1 ? '' : 's'}`
  const hours = Math.round(minutes / 60)
  return hours < 48 ? `in ${hours} hours` : `in ${Math.round(hours / 24)} days`
}

await runCli(() => main(process.argv.slice(2)))
