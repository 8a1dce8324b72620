/**
 * The order in which test files start. Vitest orders by the durations of the
 * previous run where it has them (a developer's machine), but CI's fresh clone
 * has none, and then it goes by file size: the smoke bench, a short file with
 * minutes of work, would start last and leave CI waiting on it alone. The
 * files that take minutes start first; the Netlify emulations, which run one
 * at a time (test/gateway/netlify/one-emulation-at-a-time.ts), are spread
 * over the queue's first half or so, so that a worker seldom waits for one:
 * the first starts at once, the others after a share of the suite each.
 * The rest keep Vitest's order.
 */
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const FIRST = ['test/gateway/netlify/netlify-webhooks.test.ts', 'test/bench/smoke.test.ts', 'test/own-content.test.ts']
/** Each at its share of the queue. */
const SPREAD: Record<string, number> = {
  'test/gateway/netlify/netlify-parity.test.ts': 0.3,
  'test/gateway/netlify/netlify-oauth.test.ts': 0.45,
  'test/gateway/netlify/netlify-release.test.ts': 0.55,
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const path = (spec: TestSpecification) => relative(spec.project.config.root, spec.moduleId)
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder
    const sorted = (await super.sort(files)).sort((a, b) => group(a) - group(b))
    const first = FIRST.flatMap((file) => sorted.filter((spec) => path(spec) === file))
    const spread = sorted.filter((spec) => path(spec) in SPREAD)
    const order = sorted.filter((spec) => !first.includes(spec) && !spread.includes(spec))
    order.unshift(...first)
    const firstGroup = order.filter((spec) => group(spec) === 0).length
    for (const spec of spread.sort((a, b) => SPREAD[path(a)]! - SPREAD[path(b)]!))
      order.splice(Math.min(Math.round(SPREAD[path(spec)]! * firstGroup), firstGroup), 0, spec)
    return order
  }
}
