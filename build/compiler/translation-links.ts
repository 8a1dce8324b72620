/**
 * The link check of translations, by the default locale's rule (link.ts,
 * pipeline/schedule.ts `referenceTiming`): each `related` entry and body link
 * of a translation must name an item that is public whenever the translation
 * is, from the build's clock on, taking every translation's publication as
 * bound to its item's (translation-release.ts). So a release or an expiry
 * never breaks a later build: a German post pointing to a webinar that
 * expires before it is an author error now, not a failed rebuild at the
 * expiry.
 *
 * `related` names items of the translation's own locale (by their slug in
 * it) or, where the locale falls back, a default-locale item for as long as
 * that item has no translation in the locale. Body links point to published
 * pages: a default-locale item or one of the translation's locale.
 */
import type { CollectionName } from '../../contract/collections.ts'
import { closest } from '../core/did-you-mean.ts'
import type { ContentError } from '../core/errors.ts'
import type { SiteConfig } from '../core/site.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { isoSeconds, referenceTiming, type ReleaseWindow } from '../pipeline/schedule.ts'
import { fileLinkErrors } from './link.ts'
import { publicationOf, type Releases } from './translation-release.ts'

const DRAFT = 'is a draft: a published item may only point to published items'

/** The errors of every published (not draft) translation's references and body links, as of `now` (seconds). */
export function translationLinkErrors(
  site: SiteConfig,
  own: Iterable<CompiledFile>,
  translations: readonly CompiledFile[],
  releases: Releases,
  now: number,
): ContentError[] {
  if (!translations.length) return []
  const index = new Index(site, own, translations, releases)
  const errors: ContentError[] = []
  for (const file of translations) {
    const { draft, window } = publicationOf(file, releases)
    if (draft || !site.locales.includes(file.locale)) continue
    errors.push(
      ...fileLinkErrors(
        file,
        (target) => index.relatedReason(file, window, target, now),
        (target) => index.linkReason(file, window, target, now),
      ),
    )
  }
  return errors
}

/** Every item by `collection/slug`, per locale, apart from the drafts. */
class Index {
  private readonly defaults = new Map<string, CompiledFile>()
  private readonly drafts = new Set<string>()
  /** `locale collection/slug` → the translation; and its drafts. */
  private readonly localised = new Map<string, CompiledFile>()
  private readonly localisedDrafts = new Set<string>()
  /** `locale collection/key` → the item's translation in that locale (not a draft). */
  private readonly byKey = new Map<string, CompiledFile>()

  constructor(
    private readonly site: SiteConfig,
    own: Iterable<CompiledFile>,
    private readonly translations: readonly CompiledFile[],
    private readonly releases: Releases,
  ) {
    for (const file of own) {
      const id = `${file.collection}/${file.slug}`
      if (file.draft) this.drafts.add(id)
      else if (!this.defaults.has(id)) this.defaults.set(id, file)
    }
    for (const file of translations) {
      const id = `${file.locale} ${file.collection}/${file.slug}`
      if (publicationOf(file, releases).draft) this.localisedDrafts.add(id)
      else {
        if (!this.localised.has(id)) this.localised.set(id, file)
        this.byKey.set(`${file.locale} ${file.collection}/${file.key}`, file)
      }
    }
  }

  private windowOf(file: CompiledFile): ReleaseWindow | undefined {
    return publicationOf(file, this.releases).window
  }

  relatedReason(
    file: CompiledFile,
    window: ReleaseWindow | undefined,
    target: string,
    now: number,
  ): string | undefined {
    const { locale } = file
    const local = this.localised.get(`${locale} ${target}`)
    if (local) return referenceTiming(window, this.windowOf(local), now)
    if (this.localisedDrafts.has(`${locale} ${target}`)) return DRAFT
    const [collection] = target.split('/') as [CollectionName]
    const item = this.defaults.get(target)
    if (item) {
      const translated = this.byKey.get(`${locale} ${collection}/${item.key}`)
      if (!this.site.fallback.includes(locale))
        return translated
          ? this.translatedInstead(target, translated, locale)
          : `is a ${this.site.language} item with no ${locale} translation: a ${locale} translation relates to ${locale} items (or set locale_fallback for ${locale} in site.yaml)`
      if (!translated) return referenceTiming(window, item.window, now)
      return this.fallbackReason(target, item, translated, window, now)
    }
    if (this.drafts.has(target) && this.site.fallback.includes(locale)) return DRAFT
    for (const other of this.translations)
      if (other.locale !== locale && `${other.collection}/${other.slug}` === target) {
        const mine = this.byKey.get(`${locale} ${other.collection}/${other.key}`)
        return `is a ${other.locale} item; a ${locale} translation relates to ${locale} items${mine ? `: write ${collection}/${mine.slug}` : ''}`
      }
    const near = closest(
      target,
      [...this.localised.keys()].flatMap((k) =>
        k.startsWith(`${locale} ${collection}/`) ? [k.slice(locale.length + 1)] : [],
      ),
      3,
    )
    return `is not a ${locale} item${near ? ` (did you mean ${near}?)` : ''}`
  }

  /**
   * A default-locale item named in a locale that falls back: it stands in for
   * its translation only until that is published. Naming it is fine while the
   * translation comes out after this item is gone, or is gone for good.
   */
  private fallbackReason(
    target: string,
    item: CompiledFile,
    translated: CompiledFile,
    window: ReleaseWindow | undefined,
    now: number,
  ): string | undefined {
    const theirs = this.windowOf(translated)
    if (!window || !theirs) return undefined
    const start = Math.max(window.from, now)
    if (window.until !== undefined && window.until <= start) return undefined
    const gone = theirs.until !== undefined && theirs.until <= start
    const after = window.until !== undefined && window.until <= theirs.from
    if (gone || after) return referenceTiming(window, item.window, now)
    if (theirs.from <= start) return this.translatedInstead(target, translated, translated.locale)
    const [collection] = target.split('/')
    return `is the ${this.site.language} item, which its ${translated.locale} translation ${collection}/${translated.slug} replaces in ${translated.locale} at ${isoSeconds(theirs.from)}, while this item is published: relate to ${collection}/${translated.slug} and publish this item no earlier than it`
  }

  private translatedInstead(target: string, translated: CompiledFile, locale: string): string {
    const [collection] = target.split('/')
    return `is the ${this.site.language} item; a ${locale} translation relates to ${locale} items: write ${collection}/${translated.slug}`
  }

  /** A body link: to a default-locale item's page or one of this locale, public whenever this translation is. */
  linkReason(file: CompiledFile, window: ReleaseWindow | undefined, target: string, now: number): string | undefined {
    const candidates = [this.defaults.get(target), this.localised.get(`${file.locale} ${target}`)].filter(
      (c) => c !== undefined,
    )
    if (candidates.length) {
      const reasons = candidates.map((c) => referenceTiming(window, this.windowOf(c), now))
      return reasons.includes(undefined) ? undefined : reasons[0]
    }
    if (this.drafts.has(target) || this.localisedDrafts.has(`${file.locale} ${target}`)) return DRAFT
    return 'is not a published item'
  }
}
