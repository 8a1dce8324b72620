/**
 * A corpus of realistic prose at any size: copies of hand-written content
 * (the repository's own content/, its 39 items, for the bench proper; the
 * tests' copy of it for the smoke run: bench/lib/paths.ts, CONTENT_SOURCES),
 * each copy with the body reshuffled
 * from the sections of every item of its collection. Real frontmatter,
 * real Markdown (tables, fenced code, footnotes, links between items), real
 * word lengths; only the order differs, so no two copies render alike and
 * the render cache cannot share them.
 *
 * The first copy of each item keeps its slug (links between items and
 * `related` entries point at those), later ones get `-c<n>` slugs. The
 * corpus is deterministic from its seed and written outside the repository.
 *
 * Like the generated corpus, it compares like with like against Hugo, which
 * processes no image: the images beside the Markdown become remote URLs
 * (left as they are by the build), and social cards are off (the images row
 * measures the media pipeline on its own).
 */
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { COLLECTION_NAMES, type CollectionName } from './collections.ts'
import { keyOf } from '../../build/core/sources.ts'
import { countsFor, type Corpus } from './generate.ts'
import { createRandom, type Random } from './random.ts'

interface Source {
  slug: string
  frontmatter: string
  /** The opening paragraphs (before the first `## `) and each `## ` section, whole. */
  lead: string
  sections: string[]
}

/** Write `items` copies of the items of `source` (a content folder) into `root` (default: a new temporary folder). */
export async function generateRealisticCorpus(options: {
  items: number
  source: string
  seed?: number
  root?: string
}): Promise<Corpus> {
  const root = options.root ?? (await mkdtemp(join(tmpdir(), 'content-api-bench-real-')))
  const source = options.source
  const counts = countsFor(options.items)
  const sample = {} as Record<CollectionName, string>
  await mkdir(join(root, 'content'), { recursive: true })
  const site = await readFile(join(source, 'site.yaml'), 'utf8')
  // One locale, as the curve has always measured (the multilingual build has a row of its own): the
  // default locale's items, and site.yaml without its other locales.
  const oneLocale = site.replace(/^social_cards:.*\n/m, '').replace(/^(?:locales|locale_fallback):.*\n/gm, '')
  await writeFile(join(root, 'content', 'site.yaml'), `${oneLocale}social_cards: false\n`)
  for (const name of COLLECTION_NAMES) {
    const r = createRandom((options.seed ?? 1) * 104_729 + COLLECTION_NAMES.indexOf(name))
    const originals = await readCollection(join(source, name))
    const sections = originals.flatMap((o) => o.sections)
    await mkdir(join(root, 'content', name), { recursive: true })
    const files: [string, string][] = []
    for (let i = 0; i < counts[name]; i++) {
      const original = originals[i % originals.length]!
      const copy = Math.floor(i / originals.length)
      const slug = copy === 0 ? original.slug : `${original.slug}-c${copy}`
      const text = copy === 0 ? render(original, original.sections) : reshuffled(original, copy, sections, r)
      files.push([join(root, 'content', name, `${slug}.md`), text])
      // The edit benchmarks edit a copy in the middle of the folder, not an original other items link to.
      if (i === Math.floor(counts[name] / 2)) sample[name] = `content/${name}/${slug}.md`
    }
    for (let i = 0; i < files.length; i += 128)
      await Promise.all(files.slice(i, i + 128).map(([path, text]) => writeFile(path, text)))
  }
  return { root, items: options.items, counts, sample }
}

async function readCollection(dir: string): Promise<Source[]> {
  // The default locale's files: a translation (`x.de.md`) is no item of a single-language corpus.
  const names = (await readdir(dir)).filter((n) => n.endsWith('.md') && keyOf(n).locale === undefined).sort()
  return Promise.all(
    names.map(async (name) => {
      const text = remoteImages(await readFile(join(dir, name), 'utf8'))
      const end = text.indexOf('\n---\n', 4)
      const frontmatter = text.slice(4, end + 1)
      const body = text.slice(end + 5)
      const parts = body.split(/\n(?=## )/)
      return { slug: name.slice(0, -3), frontmatter, lead: parts[0]!, sections: parts.slice(1) }
    }),
  )
}

/** A later copy: its own title, its lead, then sections drawn from the whole collection in a new order. */
function reshuffled(original: Source, copy: number, sections: readonly string[], r: Random): string {
  const count = Math.max(2, original.sections.length)
  const title = /^title: (.*)$/m.exec(original.frontmatter)?.[1] ?? original.slug
  const unquoted = title.replace(/^(["'])(.*)\1$/, '$2')
  const frontmatter = original.frontmatter.replace(
    /^title: .*$/m,
    `title: ${JSON.stringify(`${unquoted} (${copy + 1})`)}`,
  )
  // Footnote definitions travel with their section; a reference whose definition went elsewhere renders as text.
  return render({ ...original, frontmatter }, r.sample(sections, Math.min(count, sections.length)))
}

function render(source: Source, sections: readonly string[]): string {
  return `---\n${source.frontmatter}---\n${[source.lead, ...sections].join('\n')}`
}

const IMAGE = String.raw`[^\s)]+\.(?:jpe?g|png|webp|avif|gif)`
/** Where the local images of an item point instead (a remote URL is not processed). */
const REMOTE = 'https://cdn.tidewater.example/images/'

/** The item with its local images (frontmatter `url`/`avatar_url`, body `![…](…)`) as remote URLs. */
function remoteImages(text: string): string {
  const remote = (path: string) => REMOTE + path.replace(/^(\.\.\/)+/, '')
  return text
    .replace(
      new RegExp(String.raw`^(\s*(?:url|avatar_url): )(?!https?:)(${IMAGE})\s*$`, 'gm'),
      (_, key, path) => key + remote(path),
    )
    .replace(
      new RegExp(String.raw`(!\[[^\]]*\]\()(?!https?:)(${IMAGE})`, 'g'),
      (_, start, path) => start + remote(path),
    )
}
