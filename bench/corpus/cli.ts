/** `tsx bench/corpus/cli.ts [--items N] [--seed S] [--out DIR]`: write a corpus and print where. */
import { parseArgs } from 'node:util'
import { generateCorpus } from './generate.ts'

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string' },
  },
})
const corpus = await generateCorpus({
  items: Number(values.items),
  seed: Number(values.seed),
  ...(values.out ? { root: values.out } : {}),
})
console.log(JSON.stringify(corpus, null, 2))
