/**
 * The order in which test files start: the few that take minutes first, so
 * that none of them starts last and leaves CI waiting on it alone while the
 * other workers sit idle. Vitest orders by the durations of the previous run
 * where it has them (a developer's machine), but CI's fresh clone has none,
 * and then it goes by file size: the smoke bench, a short file with minutes of
 * work, would start last. The files below go first, in this order (the
 * Netlify emulations apart, so that few run at once); the rest keep Vitest's
 * order.
 */
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const LONGEST_FIRST = [
  'test/gateway/netlify/netlify-webhooks.test.ts',
  'test/bench/smoke.test.ts',
  'test/gateway/netlify/netlify-parity.test.ts',
  'test/own-content.test.ts',
  'test/gateway/netlify/netlify-oauth.test.ts',
  'test/gateway/netlify/netlify-release.test.ts',
]

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(relative(spec.project.config.root, spec.moduleId))
      return at < 0 ? LONGEST_FIRST.length : at
    }
    // Array.prototype.sort is stable: the rest keep Vitest's order (its projects' groupOrder first).
    return sorted.sort(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b),
    )
  }
}
