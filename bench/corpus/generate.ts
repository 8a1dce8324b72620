/**
 * The benchmark corpus: N items across the four collections, deterministic
 * from a seed, written as a project (content/ + content/site.yaml) in a
 * temporary folder outside the repository.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { COLLECTION_NAMES, MODEL_YAML, type CollectionName } from './collections.ts'
import { frontmatter, toYaml } from './frontmatter.ts'
import { createRandom } from './random.ts'
import { body, TOPICS } from './text.ts'

/** Share of the items per collection. */
const MIX: Record<CollectionName, number> = { 'blog-posts': 0.5, 'case-studies': 0.15, webinars: 0.175, events: 0.175 }

/**
 * Social cards are off: Hugo and Velite draw none, so the build rows compare
 * like with like (the images row measures the media pipeline on its own).
 */
export const SITE_YAML = `name: Bench Co
description: Generated content for the benchmarks.
url: https://www.tidewater.example
language: en
social_cards: false
${MODEL_YAML}`

export interface Corpus {
  root: string
  items: number
  counts: Record<CollectionName, number>
  /** One existing file per collection, relative to root, for edit benchmarks. */
  sample: Record<CollectionName, string>
}

export function countsFor(items: number): Record<CollectionName, number> {
  const counts = {} as Record<CollectionName, number>
  let left = items
  for (const name of COLLECTION_NAMES.slice(1)) left -= counts[name] = Math.round(items * MIX[name])
  counts['blog-posts'] = left
  return counts
}

/** The locales of a multilingual corpus (`translated`): English, and German and French falling back to it. */
const LOCALES = ['de', 'fr'] as const

/**
 * Write the corpus into `root` (default: a new temporary folder). `translated`: every third
 * item also gets a German and a French translation (`<slug>.de.md`, `<slug>.fr.md`, other text
 * of the same kind), and site.yaml publishes en, de and fr: the same item count, in three locales.
 */
export async function generateCorpus(options: {
  items: number
  seed?: number
  root?: string
  translated?: boolean
}): Promise<Corpus> {
  const root = options.root ?? (await mkdtemp(join(tmpdir(), 'content-api-bench-')))
  const counts = countsFor(options.items)
  const sample = {} as Record<CollectionName, string>
  await mkdir(join(root, 'content'), { recursive: true })
  const locales = `locales: [en, ${LOCALES.join(', ')}]\nlocale_fallback: true\n`
  await writeFile(join(root, 'content', 'site.yaml'), options.translated ? `${SITE_YAML}${locales}` : SITE_YAML)
  for (const name of COLLECTION_NAMES) {
    // One stream per collection: adding items to one never reshuffles another.
    const r = createRandom((options.seed ?? 1) * 7919 + COLLECTION_NAMES.indexOf(name))
    await mkdir(join(root, 'content', name), { recursive: true })
    const files: [string, string][] = []
    for (let i = 0; i < counts[name]; i++) {
      const slug = `${r.pick(TOPICS).replace(/ /g, '-')}-${name.slice(0, 4)}-${String(i).padStart(5, '0')}`
      const text = `---\n${toYaml(frontmatter(name, r, slug))}---\n\n${body(r, slug, 'https://cdn.tidewater.example/images')}`
      files.push([join(root, 'content', name, `${slug}.md`), text])
      if (i === 0) sample[name] = `content/${name}/${slug}.md`
      if (options.translated && i % 3 === 0) {
        // A stream of its own: the default locale's files are the single-language corpus's, byte for byte.
        const t = createRandom((options.seed ?? 1) * 104_729 + i * 8 + COLLECTION_NAMES.indexOf(name))
        for (const locale of LOCALES) {
          const translated = `---\n${toYaml(frontmatter(name, t, slug))}---\n\n${body(t, slug, 'https://cdn.tidewater.example/images')}`
          files.push([join(root, 'content', name, `${slug}.${locale}.md`), translated])
        }
      }
    }
    for (let i = 0; i < files.length; i += 128) {
      await Promise.all(files.slice(i, i + 128).map(([path, text]) => writeFile(path, text)))
    }
  }
  return { root, items: options.items, counts, sample }
}
