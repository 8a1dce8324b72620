/**
 * The link check of translations, by the default locale's rule (link.ts,
 * pipeline/schedule.ts `referenceTiming`): each `related` entry and body link
 * of a translation must name an item that is public whenever the translation
 * is, from the build's clock on, taking every translation's publication as
 * bound to its item's (translation-schedule.ts). So a release or an expiry
 * never breaks a later build: a German post pointing to a webinar that
 * expires before it is an author error now, not a failed rebuild at the
 * expiry.
 *
 * `related` names items of the translation's own locale (by their slug in
 * it) or, where the locale falls back, a default-locale item for as long as
 * that item has no translation in the locale. Body links point to published
 * pages: a default-locale item or one of the translation's locale.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import { closest } from '../../contract/did-you-mean.ts'
import type { ContentError } from '../core/errors.ts'
import type { SiteConfig } from '../core/site.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { isoSeconds, referenceTiming, type PublicationWindow } from '../pipeline/schedule.ts'
import { fileLinkErrors } from './link.ts'
import { publicationOf, type Schedules } from './translation-schedule.ts'

const DRAFT = 'is a draft: a published item may only point to published items'

/** Files replaced since the index was last used, each `[before, after]` (undefined: added or removed); 'all' after a full compile. */
export type FileChanges = [CompiledFile | undefined, CompiledFile | undefined][] | 'all'

/**
 * The link check of translations, its index of every item kept between
 * edits: made once, then brought up to date for the files an edit replaced
 * when none of them changes what the index is keyed by (their ids, keys,
 * locales, drafts; the releases bound to them), else made again. So an edit
 * on a multilingual site does not index every file again; the answers are
 * those of an index made afresh (test/build/compiler/watch/locale-edits.test.ts).
 */
export class TranslationLinks {
  private index: Index | undefined
  /** How many times the index was made from every file (what an edit should not cost). */
  made = 0

  /**
   * The errors of every published (not draft) translation's references and
   * body links, as of `now` (seconds). `changes`: the files replaced since
   * the last call; `boundTo`: the translations bound to a default-locale
   * file (their releases follow it).
   */
  errors(
    site: SiteConfig,
    own: Iterable<CompiledFile>,
    translations: readonly CompiledFile[],
    schedules: Schedules,
    now: number,
    changes: FileChanges,
    boundTo: (file: CompiledFile) => Iterable<CompiledFile>,
  ): ContentError[] {
    if (!translations.length) {
      this.index = undefined
      return []
    }
    const kept = this.index?.update(site, translations, schedules, changes, boundTo)
    if (!kept) this.made++
    const index = kept ? this.index! : new Index(site, own, translations, schedules)
    this.index = index
    return translationLinkErrors(site, translations, schedules, now, index)
  }
}

/** The errors of every published (not draft) translation's references and body links, as of `now` (seconds). */
function translationLinkErrors(
  site: SiteConfig,
  translations: readonly CompiledFile[],
  schedules: Schedules,
  now: number,
  index: Index,
): ContentError[] {
  const errors: ContentError[] = []
  for (const file of translations) {
    const { draft, window } = publicationOf(file, schedules)
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

  /** Whether each translation was indexed as a draft (its own flag, or its item's: `releases`). */
  private readonly drafted = new Map<CompiledFile, boolean>()

  constructor(
    private readonly site: SiteConfig,
    own: Iterable<CompiledFile>,
    private translations: readonly CompiledFile[],
    private readonly schedules: Schedules,
  ) {
    for (const file of own) {
      const id = `${file.collection}/${file.slug}`
      if (file.draft) this.drafts.add(id)
      else if (!this.defaults.has(id)) this.defaults.set(id, file)
    }
    for (const file of translations) {
      const id = `${file.locale} ${file.collection}/${file.slug}`
      const draft = publicationOf(file, schedules).draft
      this.drafted.set(file, draft)
      if (draft) this.localisedDrafts.add(id)
      else {
        if (!this.localised.has(id)) this.localised.set(id, file)
        this.byKey.set(`${file.locale} ${file.collection}/${file.key}`, file)
      }
    }
  }

  /**
   * Take in `changes` (each file in its predecessor's place: the maps keep
   * their order, so the first of two files with one id stays the first);
   * false, changing nothing, when the index must be made again instead. The
   * releases are kept by difference in one map (schedule-index.ts): another
   * map means they were worked out afresh, and anything may have moved.
   */
  update(
    site: SiteConfig,
    translations: readonly CompiledFile[],
    schedules: Schedules,
    changes: FileChanges,
    boundTo: (file: CompiledFile) => Iterable<CompiledFile>,
  ): boolean {
    if (changes === 'all' || site !== this.site || schedules !== this.schedules) return false
    const same = (a: CompiledFile, b: CompiledFile) =>
      a.locale === b.locale && a.collection === b.collection && a.slug === b.slug && a.key === b.key
    for (const [before, after] of changes) {
      if (!before || !after || !same(before, after)) return false
      if (after.locale === site.language) {
        if (before.draft !== after.draft) return false
        // Its translations' releases follow it: each must still be what it was indexed as.
        for (const bound of boundTo(after))
          if (this.drafted.get(bound) !== publicationOf(bound, schedules).draft) return false
      } else if (this.drafted.get(before) !== publicationOf(after, schedules).draft) return false
    }
    for (const [before, after] of changes as [CompiledFile, CompiledFile][]) {
      const id = `${after.collection}/${after.slug}`
      if (after.locale === site.language) {
        if (this.defaults.get(id) === before) this.defaults.set(id, after)
        continue
      }
      this.drafted.set(after, this.drafted.get(before)!)
      this.drafted.delete(before)
      const localId = `${after.locale} ${id}`
      const keyId = `${after.locale} ${after.collection}/${after.key}`
      if (this.localised.get(localId) === before) this.localised.set(localId, after)
      if (this.byKey.get(keyId) === before) this.byKey.set(keyId, after)
    }
    this.translations = translations
    return true
  }

  private windowOf(file: CompiledFile): PublicationWindow | undefined {
    return publicationOf(file, this.schedules).window
  }

  relatedReason(
    file: CompiledFile,
    window: PublicationWindow | undefined,
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
    window: PublicationWindow | undefined,
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
  linkReason(
    file: CompiledFile,
    window: PublicationWindow | undefined,
    target: string,
    now: number,
  ): string | undefined {
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
