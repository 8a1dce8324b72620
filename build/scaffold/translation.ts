/**
 * `npm run new -- --translate <collection>/<slug> --locale de [--slug …]`:
 * start a translation of an existing item as a draft beside it
 * (`my-post.de.md`, or `index.de.md` in the item's folder): its frontmatter
 * and body copied for the translator to rewrite, its `related` entries
 * turned into their translations' slugs where those exist. Never overwrites.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { UsageError } from '../../contract/errors.ts'
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from '../../contract/patterns.ts'
import { closest } from '../../contract/did-you-mean.ts'
import { loadSiteConfig } from '../core/site.ts'
import { keyOf } from '../core/sources.ts'

export const TRANSLATE_USAGE =
  'usage: npm run new -- --translate <collection>/<slug> --locale <locale> [--slug my-translated-slug] [--root DIR]'

/** The file of one item (and locale) of a collection: name relative to the collection, its key, locale and slug. */
interface ItemFile {
  name: string
  key: string
  locale: string | undefined
  slug: string
}

async function filesOf(root: string, collection: string): Promise<ItemFile[]> {
  const dir = join(root, 'content', collection)
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const names: string[] = []
  for (const entry of entries) {
    if (entry.isDirectory())
      for (const inner of await readdir(join(dir, entry.name)).catch(() => [] as string[]))
        if (/^index(?:\.[^.]+)?\.md$/.test(inner)) names.push(`${entry.name}/${inner}`)
    if (entry.isFile() && entry.name.endsWith('.md')) names.push(entry.name)
  }
  return Promise.all(
    names.sort().map(async (name) => {
      const { key, locale } = keyOf(name)
      const text = await readFile(join(dir, name), 'utf8')
      const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? ''
      const slug = /^slug:[ \t]*["']?([a-z0-9-]+)["']?[ \t]*$/m.exec(frontmatter)?.[1] ?? key
      return { name, key, locale, slug }
    }),
  )
}

/** Create the translation's file; returns its project-relative path. */
export async function scaffoldTranslation(
  root: string,
  source: string,
  wanted: string,
  options: { slug?: string } = {},
): Promise<string> {
  const [collection, slug] = source.split('/')
  const site = await loadSiteConfig(root)
  if (!collection || !slug || !Object.hasOwn(site.collections, collection))
    throw new UsageError(
      `--translate "${source}" must name an item as collection/slug, like ${site.model.names[0] ?? 'blog-posts'}/my-post`,
      TRANSLATE_USAGE,
    )
  const locale = site.locales.find((l) => l.toLowerCase() === wanted.toLowerCase())
  if (!locale || locale === site.language) {
    const others = site.locales.filter((l) => l !== site.language)
    throw new UsageError(
      others.length
        ? `--locale "${wanted}" is not one of the site's other locales (${others.join(', ')}; site.yaml lists them)`
        : `the site has one locale (${site.language}): list the others in content/site.yaml first, like locales: [${site.language}, de, fr]`,
      TRANSLATE_USAGE,
    )
  }
  if (
    options.slug !== undefined &&
    !(options.slug.length <= MAX_SLUG_LENGTH && new RegExp(SLUG_PATTERN).test(options.slug))
  )
    throw new UsageError(
      `--slug "${options.slug}" must be lowercase letters, digits and single hyphens`,
      TRANSLATE_USAGE,
    )
  const files = await filesOf(root, collection)
  const own = (f: ItemFile) => f.locale === undefined || f.locale.toLowerCase() === site.language.toLowerCase()
  const original = files.find((f) => own(f) && f.slug === slug)
  if (!original) {
    const near = closest(
      slug,
      files.filter(own).map((f) => f.slug),
      3,
    )
    throw new UsageError(
      `--translate "${source}" is not an item of the default locale${near ? ` (did you mean ${collection}/${near}?)` : ''}; nothing was written`,
      TRANSLATE_USAGE,
    )
  }
  const name = original.name.includes('/') ? `${original.key}/index.${locale}.md` : `${original.key}.${locale}.md`
  const path = `content/${collection}/${name}`
  const text = await readFile(join(root, 'content', collection, original.name), 'utf8')
  // Related items become their translations where they have one (a translation relates to its locale's items).
  const translated = new Map<string, string>()
  for (const c of ['blog-posts', 'case-studies', 'webinars', 'events']) {
    const all = c === collection ? files : await filesOf(root, c)
    for (const f of all.filter(own)) {
      const t = all.find((o) => o.key === f.key && o.locale?.toLowerCase() === locale.toLowerCase())
      if (t) translated.set(`${c}/${f.slug}`, `${c}/${t.slug}`)
    }
  }
  await writeFile(join(root, path), translationOf(text, locale, options.slug, translated), { flag: 'wx' }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') throw new UsageError(`${path} already exists; nothing was written`, TRANSLATE_USAGE)
      throw error
    },
  )
  return path
}

/** The original's text as a draft translation: its own slug (or the key's), related items mapped, a note to translate. */
function translationOf(text: string, locale: string, slug: string | undefined, related: Map<string, string>): string {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text)
  const body = match ? text.slice(match[0].length) : text
  const lines = (match?.[1] ?? '').split(/\r?\n/).filter((line) => !/^(slug|draft):/.test(line))
  const mapped = lines.map((line) =>
    line.replace(/\b((?:blog-posts|case-studies|webinars|events)\/[a-z0-9-]+)\b/g, (ref) => related.get(ref) ?? ref),
  )
  const head = [
    `# ${locale} translation: translate the title, summary, alt texts and body; remove draft: true to publish.`,
    ...(slug ? [`slug: ${slug}`] : []),
    ...mapped,
    'draft: true',
  ]
  return `---\n${head.join('\n')}\n---\n${body}`
}
