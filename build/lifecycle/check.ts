#!/usr/bin/env node
/**
 * `npm run api:check`: the breaking-change gate (gate.ts) on this checkout's
 * OpenAPI document against the released one (contract/released/openapi.json).
 * Exit 1, naming each breaking change, unless the major version was raised.
 */
import { runCli } from '../../contract/cli.ts'
import { defineCommand, parseCommand, printHelp } from '../../contract/cli-args.ts'
import { gate } from './gate.ts'
import { currentDocument, releasedDocument } from './released.ts'

const CHECK = defineCommand({
  name: 'npm run api:check',
  summary:
    "Compare this checkout's OpenAPI document with the released one (contract/released/openapi.json): exit 1, naming each breaking change, unless the major version was raised.",
  options: {},
})

if (process.argv[1] === import.meta.filename) {
  await runCli(async () => {
    if (parseCommand(CHECK, process.argv.slice(2)).help) return printHelp(CHECK)
    const result = gate(await releasedDocument(), await currentDocument())
    const [verdict, ...rest] = result.lines
    console.error(`${result.ok ? '✓' : '✗'} ${verdict}`)
    for (const line of rest) console.error(line)
    return result.ok ? 0 : 1
  })
}
