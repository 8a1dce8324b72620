/**
 * The breaking-change gate: the current document against the last released
 * one. A breaking change fails it unless the major version was raised; a
 * version lower than the released one fails it too. Changes that break
 * nothing pass, listed as waiting for `npm run api:release`.
 */
import { majorOf } from '../../contract/lifecycle.ts'
import { compareDocuments, describeChanges, type Comparison } from './compare.ts'

export interface GateResult {
  ok: boolean
  /** What to print: the verdict first, then one line per change. */
  lines: string[]
  comparison: Comparison
}

interface Versioned {
  info: { version: string }
}

export function gate(released: Versioned, current: Versioned): GateResult {
  const from = released.info.version
  const to = current.info.version
  const comparison = compareDocuments(released, current)
  const { changes, breaking } = comparison
  if (compareVersions(to, from) < 0)
    return {
      ok: false,
      lines: [`API version ${to} is lower than the released ${from}: versions only go up (contract/lifecycle.ts)`],
      comparison,
    }
  if (breaking.length > 0 && majorOf(to) <= majorOf(from))
    return {
      ok: false,
      lines: [
        `${breaking.length} breaking change${breaking.length === 1 ? '' : 's'} to the API since ${from}, without a new major version:`,
        ...describeChanges(breaking).map((line) => `  ${line}`),
        `Undo ${breaking.length === 1 ? 'it' : 'them'} (deprecate first: docs/api-lifecycle.md), or raise API_VERSION to ${majorOf(from) + 1}.0.0 in contract/lifecycle.ts and run npm run api:release.`,
      ],
      comparison,
    }
  const pending =
    changes.length === 0
      ? [`the API is as released (${from})`]
      : [
          `${changes.length} change${changes.length === 1 ? '' : 's'} since ${from}${breaking.length > 0 ? `, breaking ones allowed by the new major version ${to}` : ', none breaking'}; npm run api:release records them:`,
          ...describeChanges(changes).map((line) => `  ${line}`),
        ]
  return { ok: true, lines: pending, comparison }
}

/** Semver order of two release versions (pre-release tags are not used by this API). */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[-+]/)[0]!.split('.').map(Number)
  const [x, y] = [parts(a), parts(b)]
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return 0
}
