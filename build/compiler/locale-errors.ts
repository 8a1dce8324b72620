/**
 * The author errors of a multilingual site's translations that no single
 * file shows: two files claiming one locale of an item, two translations of
 * a locale with one slug, and, in a locale that falls back, a translation
 * whose slug is an untranslated item's (both would be listed in that
 * locale, and its item URL would always answer the translation: the other
 * item could not be reached there).
 */
import { COLLECTION_NAMES } from '../../contract/collections.ts'
import { ContentError } from '../core/errors.ts'
import type { SiteConfig } from '../core/site.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { checkDuplicateSlugs } from '../pipeline/validate.ts'

const byPath = (a: CompiledFile, b: CompiledFile) => (a.source.path < b.source.path ? -1 : 1)

/** Errors of translation files alone: their own and duplicate slugs (two files of one locale of an item: `LocaleClaims`). */
export function translationErrors(
  site: SiteConfig,
  own: readonly CompiledFile[],
  translations: readonly CompiledFile[],
): ContentError[] {
  const errors = translations.flatMap((f) => f.errors)
  for (const locale of site.locales.slice(1))
    for (const collection of COLLECTION_NAMES) {
      const slugs = translations
        .filter((f) => f.locale === locale && f.collection === collection && f.slugAt)
        .map((f) => ({ path: f.source.path, slug: f.slug, slugAt: f.slugAt! }))
        .sort((a, b) => (a.path < b.path ? -1 : 1))
      checkDuplicateSlugs(slugs, errors)
    }
  errors.push(...fallbackSlugClashes(site, own, translations))
  return errors
}

/**
 * The files claiming each item's locale (`collection/key@locale`), kept up to
 * date file by file: an edit costs a lookup, not a pass over every file.
 * Two claims of one locale are an author error: `x.md` and `x/index.md`, or
 * `x.de.md` and `x/index.de.md`.
 */
export class LocaleClaims {
  private readonly claims = new Map<string, Set<CompiledFile>>()
  /** The ids claimed more than once. */
  private readonly twice = new Set<string>()
  private readonly ids = new WeakMap<CompiledFile, string>()

  add(file: CompiledFile): void {
    const id = `${file.collection}/${file.key}@${file.locale}`
    this.ids.set(file, id)
    const claim = this.claims.get(id)
    if (!claim) this.claims.set(id, new Set([file]))
    else if (claim.add(file).size > 1) this.twice.add(id)
  }

  delete(file: CompiledFile): void {
    const id = this.ids.get(file)
    const claim = id === undefined ? undefined : this.claims.get(id)
    if (!claim?.delete(file)) return
    if (claim.size < 2) this.twice.delete(id!)
    if (claim.size === 0) this.claims.delete(id!)
  }

  clear(): void {
    this.claims.clear()
    this.twice.clear()
  }

  /** A second file (in path order) claiming a locale its item already has. */
  errors(): ContentError[] {
    const errors: ContentError[] = []
    for (const id of this.twice) {
      const [first, ...later] = [...this.claims.get(id)!].sort(byPath) as [CompiledFile, ...CompiledFile[]]
      for (const file of later)
        errors.push(
          new ContentError(
            'LOCALE',
            file.source.path,
            1,
            1,
            'locale',
            `is a second ${file.locale} file of the item "${file.key}": ${first.source.path} already is; an item has one file per locale (remove or rename one)`,
          ),
        )
    }
    return errors
  }
}

/**
 * In a locale that falls back, a translation's slug that another item's default file has while that
 * item has no translation into the locale. Drafts aside, whatever their release dates: a release must
 * not make a later build fail.
 */
function fallbackSlugClashes(
  site: SiteConfig,
  own: readonly CompiledFile[],
  translations: readonly CompiledFile[],
): ContentError[] {
  if (site.fallback.length === 0 || translations.length === 0) return []
  const defaults = new Map<string, CompiledFile>()
  for (const file of [...own].sort(byPath))
    if (!file.draft && file.slugAt) {
      const id = `${file.collection}/${file.slug}`
      if (!defaults.has(id)) defaults.set(id, file)
    }
  const translated = new Set(translations.filter((f) => !f.draft).map((f) => `${f.collection}/${f.key}@${f.locale}`))
  const errors: ContentError[] = []
  for (const file of [...translations].sort(byPath)) {
    if (file.draft || !file.slugAt || !site.fallback.includes(file.locale)) continue
    const other = defaults.get(`${file.collection}/${file.slug}`)
    if (!other || other.key === file.key || translated.has(`${other.collection}/${other.key}@${file.locale}`)) continue
    errors.push(
      new ContentError(
        'DUPLICATE_SLUG',
        file.source.path,
        file.slugAt.line,
        file.slugAt.column,
        'slug',
        `"${file.slug}" is the slug of ${other.source.path}, which has no ${file.locale} translation: ${file.locale} falls back to ${site.language}, so it lists both and /api/${file.collection}/${file.slug}?locale=${file.locale} could answer only one; give this translation another slug (or translate ${other.source.path} into ${file.locale})`,
      ),
    )
  }
  return errors
}
