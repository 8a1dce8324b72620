/**
 * A multilingual build: the corpus's item count again, every third item with
 * a German and a French translation (generate.ts `translated`), built cold
 * as `npm run build` builds it. Its row compares it with the single-language
 * cold build of the same items, measured in the same run.
 */
import { generateCorpus } from '../corpus/generate.ts'
import type { ProcessResult } from '../lib/process.ts'
import { setAside } from '../lib/set-aside.ts'
import { coldBuilds } from './build.ts'

export interface LocaleSamples {
  /** Translation files besides the items. */
  translations: number
  cold: ProcessResult[]
}

export async function benchLocales(
  items: number,
  options: { seed: number; runs: number; keep?: boolean },
): Promise<LocaleSamples> {
  const corpus = await generateCorpus({ items, seed: options.seed, translated: true })
  try {
    // A failed build throws (ProcessFailed), and the row says why.
    const cold = await coldBuilds(corpus.root, options.runs)
    const translations = Object.values(corpus.counts).reduce((sum, count) => sum + Math.ceil(count / 3) * 2, 0)
    return { translations, cold }
  } finally {
    if (!options.keep) await setAside(corpus.root)
  }
}
