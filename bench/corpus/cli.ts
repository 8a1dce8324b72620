/**
 * `tsx bench/corpus/cli.ts [--items N] [--seed S] [--out DIR] [--real [--content DIR]]`: write a
 * corpus and print where. `--real`: copies of content/ (or of the content folder `--content`
 * names) with reshuffled sections (realistic.ts) instead of generated prose.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { CONTENT_SOURCES } from '../lib/paths.ts'
import { generateCorpus } from './generate.ts'
import { generateRealisticCorpus } from './realistic.ts'

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string' },
    real: { type: 'boolean', default: false },
    content: { type: 'string' },
  },
})
const options = {
  items: Number(values.items),
  seed: Number(values.seed),
  ...(values.out ? { root: values.out } : {}),
}
const source = values.content ? resolve(values.content) : CONTENT_SOURCES.repository
const corpus = values.real ? await generateRealisticCorpus({ ...options, source }) : await generateCorpus(options)
console.log(JSON.stringify(corpus, null, 2))
