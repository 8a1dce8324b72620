/**
 * The order in which test files start. Vitest orders by the durations of the
 * previous run where it has them (a developer's machine), but CI's fresh clone
 * has none, and then it goes by file size: own-content.test.ts, a short file
 * with minutes of work (it runs the smoke bench), would start last and leave CI waiting on it alone. The
 * files that wait on the clock start first (their waits then overlap the
 * others' work), then those that take longest; the rest keep Vitest's order.
 */
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const FIRST = [
  // Waiting for a release time half a minute ahead, then for the next.
  'test/gateway/schedule/serve.test.ts',
  'test/gateway/preview/schedule.test.ts',
  'test/own-content.test.ts',
  'test/gateway/admin/editor.test.ts',
  'test/gateway/files/artifacts.test.ts',
  'test/gateway/admin/translations.test.ts',
  'test/ci/node-runtime.test.ts',
  'test/gateway/schedule/locale-scan.test.ts',
  'test/ci/step-environment.test.ts',
  'test/build/bundle/prebuilt.test.ts',
  'test/gateway/webhooks/reliability.test.ts',
  'test/gateway/netlify/netlify-parity.test.ts',
]

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = FIRST.indexOf(relative(spec.project.config.root, spec.moduleId))
      return at < 0 ? FIRST.length : at
    }
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder
    // Array.prototype.sort is stable: the rest keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => group(a) - group(b) || rank(a) - rank(b))
  }
}
