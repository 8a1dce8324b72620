/**
 * `tsx bench/corpus/cli.ts [--items N] [--seed S] [--out DIR] [--real]`: write a
 * corpus and print where. `--real`: copies of content/ with reshuffled
 * sections (realistic.ts) instead of generated prose.
 */
import { parseArgs } from 'node:util'
import { generateCorpus } from './generate.ts'
import { generateRealisticCorpus } from './realistic.ts'

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string' },
    real: { type: 'boolean', default: false },
  },
})
const options = {
  items: Number(values.items),
  seed: Number(values.seed),
  ...(values.out ? { root: values.out } : {}),
}
const corpus = values.real ? await generateRealisticCorpus(options) : await generateCorpus(options)
console.log(JSON.stringify(corpus, null, 2))
