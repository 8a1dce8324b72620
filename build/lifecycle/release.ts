#!/usr/bin/env node
/**
 * `npm run api:release [-- --date YYYY-MM-DD] [--amend]`: release the API as
 * this checkout describes it. It compares the document with the released one
 * (the gate first: a breaking change needs a new major version), adds what
 * changed to the changelog under API_VERSION (contract/lifecycle.ts, which
 * must have been raised when anything changed), and stores the document and
 * the client types generated from it in contract/released/. `--amend` folds
 * the changes into the last release instead, its version unchanged: for a
 * release not yet deployed, so no client has it and even a breaking change
 * is allowed (the first release stays "the first release").
 */
import { writeFile } from 'node:fs/promises'
import { access } from 'node:fs/promises'
import { runCli } from '../../contract/cli.ts'
import { defineCommand, parseCommand, printHelp } from '../../contract/cli-args.ts'
import { UsageError } from '../../contract/errors.ts'
import { API_VERSION } from '../../contract/lifecycle.ts'
import { clientTypes } from './client-types.ts'
import { compareVersions, gate } from './gate.ts'
import {
  CHANGELOG_FILE,
  CLIENT_TYPES_FILE,
  currentDocument,
  readChangelog,
  releasedDocument,
  releaseOf,
  RELEASED_DOCUMENT,
  type Changelog,
  type Release,
} from './released.ts'

const RELEASE = defineCommand({
  name: 'npm run api:release',
  summary:
    'Release the API as this checkout describes it: the breaking-change gate, the changelog under API_VERSION (contract/lifecycle.ts), and the document and client types stored in contract/released/.',
  options: {
    date: { type: 'string', value: 'YYYY-MM-DD', help: "the release's date in the changelog (default: today)" },
    amend: {
      type: 'boolean',
      help: 'fold the changes into the last release, not yet deployed, its version unchanged',
    },
  },
})

async function main(argv: string[]): Promise<number> {
  const args = parseCommand(RELEASE, argv)
  if (args.help) return printHelp(RELEASE)
  const date = args.values.date ?? new Date().toISOString().slice(0, 10)
  const amend = args.values.amend === true
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date)))
    throw new UsageError(`--date must be a date like 2026-12-01, not "${date}"`)
  const current = await currentDocument()
  const first = await access(RELEASED_DOCUMENT).then(
    () => false,
    () => true,
  )
  let changelog: Changelog = { releases: [] }
  let message: string
  if (first) {
    changelog.releases.push({
      version: API_VERSION,
      date,
      added: ['The first release.'],
      changed: [],
      deprecated: [],
      removed: [],
    })
    message = `first release: ${API_VERSION}`
  } else {
    const released = await releasedDocument()
    const result = gate(released, current)
    // Amending an undeployed release may break what it had: no client has it yet.
    const amendsBreaking = amend && compareVersions(API_VERSION, released.info.version) >= 0
    if (!result.ok && !amendsBreaking) {
      console.error(`✗ ${result.lines[0]}`)
      for (const line of result.lines.slice(1)) console.error(line)
      return 1
    }
    changelog = readChangelog()
    const { changes } = result.comparison
    const last = changelog.releases[0]
    if (amend) {
      if (!last || last.version !== API_VERSION)
        throw new UsageError(
          `--amend changes the last release, ${last?.version}; contract/lifecycle.ts says ${API_VERSION}`,
        )
      const only = changelog.releases.length === 1
      changelog.releases[0] = only ? { ...last, date } : merged(last, releaseOf(API_VERSION, date, changes))
      message = `${API_VERSION} amended with ${changes.length} change${changes.length === 1 ? '' : 's'}`
    } else if (changes.length === 0) {
      message = `nothing changed since ${released.info.version}; the stored document is refreshed`
    } else if (API_VERSION === released.info.version) {
      console.error(
        `✗ ${changes.length} change${changes.length === 1 ? '' : 's'} since ${API_VERSION}: raise API_VERSION in contract/lifecycle.ts first (minor for additions and deprecations, patch for fixes, major for breaking changes)`,
      )
      return 1
    } else {
      changelog.releases.unshift(releaseOf(API_VERSION, date, changes))
      message = `released ${API_VERSION} with ${changes.length} change${changes.length === 1 ? '' : 's'}`
    }
  }
  await writeFile(RELEASED_DOCUMENT, `${JSON.stringify(current, null, 2)}\n`)
  await writeFile(CHANGELOG_FILE, `${JSON.stringify(changelog, null, 2)}\n`)
  await writeFile(CLIENT_TYPES_FILE, await clientTypes(current))
  console.error(`✓ ${message}: contract/released/ has its document, changelog and client types; commit them`)
  return 0
}

/** The last release with more changes in it, each line once. */
function merged(last: Release, more: Release): Release {
  const union = (a: string[], b: string[]) => [...new Set([...a, ...b])]
  const breaking = union(last.breaking ?? [], more.breaking ?? [])
  return {
    ...last,
    added: union(last.added, more.added),
    changed: union(last.changed, more.changed),
    deprecated: union(last.deprecated, more.deprecated),
    removed: union(last.removed, more.removed),
    ...(breaking.length > 0 && { breaking }),
  }
}

if (process.argv[1] === import.meta.filename) await runCli(() => main(process.argv.slice(2)))
