/**
 * The author errors of a multilingual site's translations that no single
 * file shows, kept file by file so an edit costs a lookup, not a pass (and a
 * sort) over every file: two translations of a locale with one slug, and, in
 * a locale that falls back, a translation whose slug is an untranslated
 * item's (both would be listed in that locale, and its item URL would always
 * answer the translation: the other item could not be reached there). Two
 * files claiming one locale of an item are LocaleClaims' (locale-errors.ts).
 */
import { ContentError } from '../core/errors.ts'
import type { SiteConfig } from '../core/site.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { addToSet, deleteFromSet } from '../core/set-map.ts'

const byPath = (a: CompiledFile, b: CompiledFile) => (a.source.path < b.source.path ? -1 : 1)

export class TranslationChecks {
  private language = ''
  /** Translations with errors of their own. */
  private readonly withErrors = new Set<CompiledFile>()
  /** `locale collection/slug` → the translations with that slug written; the ones with more than one. */
  private readonly slugs = new Map<string, Set<CompiledFile>>()
  private readonly twice = new Set<string>()
  /** `collection/slug` → the default-locale files and the translations (drafts aside) with that slug written. */
  private readonly defaults = new Map<string, Set<CompiledFile>>()
  private readonly translated = new Map<string, Set<CompiledFile>>()
  /** `collection/key@locale` → how many translations (drafts aside) the item has in the locale. */
  private readonly locales = new Map<string, number>()
  /** The `collection/slug`s that a default-locale file and a translation of another item share. */
  private readonly shared = new Set<string>()

  /** Forget every file; the files added next are of a site in `language`. */
  reset(language: string): void {
    this.language = language
    for (const map of [this.slugs, this.defaults, this.translated, this.locales]) map.clear()
    for (const set of [this.withErrors, this.twice, this.shared]) set.clear()
  }

  add(file: CompiledFile): void {
    this.apply(file, 1)
  }

  delete(file: CompiledFile): void {
    this.apply(file, -1)
  }

  /** The errors, as a pass over every file finds them. */
  errors(site: SiteConfig): ContentError[] {
    const errors = [...this.withErrors].flatMap((f) => f.errors)
    for (const id of this.twice) {
      if (!site.locales.slice(1).includes(id.slice(0, id.indexOf(' ')))) continue
      const [first, ...later] = [...this.slugs.get(id)!].sort(byPath) as [CompiledFile, ...CompiledFile[]]
      for (const { source, slug, slugAt } of later)
        errors.push(
          new ContentError(
            'DUPLICATE_SLUG',
            source.path,
            slugAt!.line,
            slugAt!.column,
            'slug',
            `"${slug}" is already used by ${first.source.path}`,
          ),
        )
    }
    if (site.fallback.length) for (const id of this.shared) errors.push(...this.fallbackClashes(site, id))
    return errors
  }

  /** In a locale that falls back, translations with the slug of another item's default file, that item having no translation into it. */
  private fallbackClashes(site: SiteConfig, id: string): ContentError[] {
    const [other] = [...this.defaults.get(id)!].sort(byPath) as [CompiledFile]
    const errors: ContentError[] = []
    for (const file of [...this.translated.get(id)!].sort(byPath)) {
      if (!site.fallback.includes(file.locale) || other.key === file.key) continue
      if (this.locales.has(`${other.collection}/${other.key}@${file.locale}`)) continue
      errors.push(
        new ContentError(
          'DUPLICATE_SLUG',
          file.source.path,
          file.slugAt!.line,
          file.slugAt!.column,
          'slug',
          `"${file.slug}" is the slug of ${other.source.path}, which has no ${file.locale} translation: ${file.locale} falls back to ${site.language}, so it lists both and /api/${file.collection}/${file.slug}?locale=${file.locale} could answer only one; give this translation another slug (or translate ${other.source.path} into ${file.locale})`,
        ),
      )
    }
    return errors
  }

  private apply(file: CompiledFile, change: 1 | -1): void {
    const own = file.locale === this.language
    const id = `${file.collection}/${file.slug}`
    if (!own && file.errors.length) toggle(this.withErrors, file, change)
    if (!own && file.slugAt) {
      const files = inSet(this.slugs, `${file.locale} ${id}`, file, change)
      toggle(this.twice, `${file.locale} ${id}`, files > 1 ? 1 : -1)
    }
    if (file.draft) return
    if (!own) {
      const locale = `${file.collection}/${file.key}@${file.locale}`
      const count = (this.locales.get(locale) ?? 0) + change
      if (count) this.locales.set(locale, count)
      else this.locales.delete(locale)
    }
    if (!file.slugAt) return
    inSet(own ? this.defaults : this.translated, id, file, change)
    const defaults = this.defaults.get(id)
    const shared = [...(this.translated.get(id) ?? [])].some((t) => [...(defaults ?? [])].some((d) => d.key !== t.key))
    toggle(this.shared, id, shared ? 1 : -1)
  }
}

function toggle<T>(set: Set<T>, value: T, change: 1 | -1): void {
  if (change > 0) set.add(value)
  else set.delete(value)
}

/** Add `file` to (or remove it from) the set at `id`; the set's size after. */
function inSet(map: Map<string, Set<CompiledFile>>, id: string, file: CompiledFile, change: 1 | -1): number {
  if (change > 0) return addToSet(map, id, file)
  deleteFromSet(map, id, file)
  return map.get(id)?.size ?? 0
}
