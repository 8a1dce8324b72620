/**
 * The graph from compiled files to the published content: each collection
 * assembled (assemble.ts) and linked (linker.ts), the checks no one file
 * shows (two files of one locale of an item, one person's two slugs, the
 * translations' links), and the translations joined per locale (locales.ts).
 * Kept file by file, so an edit assembles and links again only what it
 * reaches.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import type { FullRecord } from '../../contract/records.ts'
import { ContentErrors, sortErrors, type ContentError } from '../core/errors.ts'
import type { SiteConfig } from '../core/site.ts'
import type { BuiltContent } from '../emit/types.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { aliasErrors } from './alias-checks.ts'
import { assembleCollection, combine, reassembleOne, type CollectionPart } from './assemble.ts'
import type { CompileState } from './compiler-options.ts'
import { referenceErrors } from './link.ts'
import { Linker } from './linker.ts'
import { relinkLocales } from './locale-edit.ts'
import { LocaleClaims } from './locale-errors.ts'
import { byLocale, linkLocales, type LocaleState } from './locales.ts'
import { PersonSlugs } from './person-slugs.ts'
import type { ScheduleTiming } from './schedule-timing.ts'
import { TranslationChecks } from './translation-checks.ts'
import { TranslationLinks, type FileChanges } from './translation-links.ts'
import { neverPublished } from './translation-schedule.ts'

/** Per changed collection, the one file replaced (before, after); null once more than one changed. */
export type Replaced = ReadonlyMap<CollectionName, [CompiledFile | undefined, CompiledFile | undefined] | null>

export class ContentGraph {
  /** What no one file shows, kept file by file: two files of one locale of an item, one person's two slugs. */
  private readonly claims = new LocaleClaims()
  private readonly people = new PersonSlugs()
  private readonly translationChecks = new TranslationChecks()
  /** The translations' link check, and the files replaced since it last ran. */
  private readonly translationLinks = new TranslationLinks()
  private linkChanges: FileChanges = 'all'
  private readonly parts = new Map<CollectionName, CollectionPart>()
  private readonly linker = new Linker()
  /** What the last locale link kept for the next edit's (a multilingual site's). */
  private locales: LocaleState | undefined

  constructor(private readonly timing: ScheduleTiming) {}

  /** Forget every file (all are compiled again), for a site of default locale `language`. */
  reset(language: string): void {
    this.linkChanges = 'all'
    this.claims.clear()
    this.people.clear()
    this.translationChecks.reset(language)
  }

  /** The file `before` replaced by `file` (either absent for an added or removed one). */
  replace(before: CompiledFile | undefined, file: CompiledFile | undefined): void {
    if (this.linkChanges !== 'all') this.linkChanges.push([before, file])
    if (before) {
      this.claims.delete(before)
      this.people.delete(before)
      this.translationChecks.delete(before)
    }
    if (file) {
      this.claims.add(file)
      this.people.add(file)
      this.translationChecks.add(file)
    }
  }

  /**
   * Assemble the changed collections, combine all into the published content as of `now` (seconds)
   * and link it; `good` is the last content without errors. With the content, the collections whose
   * records changed (when one of its files did, or when an item it points to did).
   */
  assemble(
    site: SiteConfig,
    compiled: ReadonlyMap<string, CompiledFile>,
    changed: ReadonlySet<CollectionName>,
    replaced: Replaced | undefined,
    now: number,
    good: BuiltContent | undefined,
  ): { state: CompileState; changed?: CollectionName[] } {
    // The default locale's files go through the collections and the linker; translations join after (locales.ts).
    // Most sites have no translations: every file is the default locale's, no pass over them to sort them.
    const [own, translations]: [Iterable<CompiledFile>, CompiledFile[]] = this.timing.hasTranslations()
      ? byLocale(site, compiled.values())
      : [{ [Symbol.iterator]: () => compiled.values() }, []]
    const ownFiles = translations.length ? new Map([...own].map((f) => [f.source.path, f])) : compiled
    /** The one file an edit replaced, when that is all it did (the linkers' fast paths); 'none' when it was a translation. */
    let edit: [CompiledFile, CompiledFile] | 'none' | undefined
    const [only] = changed.size === 1 ? changed : []
    const one = only === undefined ? undefined : replaced?.get(only)
    const saved: [CompiledFile, CompiledFile] | undefined = one?.[0] && one[1] ? [one[0], one[1]] : undefined
    for (const collection of changed) {
      if (!site.collections[collection]) continue
      const one = replaced?.get(collection)
      // A translation saved again leaves the default locale's collection as it was.
      const translation = one?.[0] && one[1] && one[1].locale !== site.language && one[0].locale === one[1].locale
      const previous = this.parts.get(collection)
      if (translation && previous) {
        if (saved) edit = 'none'
        continue
      }
      const part = one?.[0] && one[1] && reassembleOne(site.collections[collection]!, previous, one[0], one[1], now)
      if (part && saved) edit = saved
      const files = part ? [] : [...ownFiles.values()].filter((c) => c.collection === collection)
      this.parts.set(collection, part || assembleCollection(site.collections[collection]!, files, now))
    }
    const errors: ContentError[] = site.model.names.flatMap((c) => {
      const part = this.parts.get(c)
      return part && !part.ok ? part.errors : []
    })
    // A translation is published only while its item is too: its window is bound to the item's.
    const { schedules, timeline } = this.timing.published()
    errors.push(...this.translationChecks.errors(site), ...neverPublished(schedules))
    errors.push(...this.claims.errors(), ...this.people.errors(), ...aliasErrors(site, compiled.values()))
    const translationLinks = () => {
      const changes = this.linkChanges
      this.linkChanges = []
      const boundTo = (file: CompiledFile) => this.timing.boundTo(file)
      return this.translationLinks.errors(site, own, translations, schedules, now, changes, boundTo)
    }
    if (errors.length) {
      // References and body links too, so an author sees every problem in one run.
      const all = [...errors, ...referenceErrors(ownFiles.values(), now), ...translationLinks()]
      return { state: { ok: false, errors: new ContentErrors(sortErrors(all)) } }
    }
    // Translations' releases and expiries (as bound to their items') change the content too.
    const base = combine(site, this.parts, { asOf: now, timeline: timeline.at(now) })
    const linked = this.linker.link(base.collections, ownFiles, now, edit)
    const linkErrors = [...linked.errors, ...translationLinks()]
    if (linkErrors.length) return { state: { ok: false, errors: new ContentErrors(sortErrors(linkErrors)) } }
    const merged = { ...base, collections: linked.records }
    // An edit's own records in their locales, from what the last link kept (locale-edit.ts); else every locale.
    const state = this.locales
    this.locales = undefined
    let content =
      state && saved && linked.replaced && relinkLocales(state, merged, saved, linked.replaced, schedules, now)
    if (content) this.locales = state
    else ({ content, state: this.locales } = linkLocales(merged, own, translations, schedules, now))
    // A collection changed when one of its files did, or when an item it points to did.
    const recordsChanged = site.model.names.filter(
      (c) => changed.has(c) || !sameItems(good?.collections[c], content.collections[c]!),
    )
    return { state: { ok: true, content }, changed: recordsChanged }
  }
}

function sameItems(before: readonly FullRecord[] | undefined, after: readonly FullRecord[]): boolean {
  if (before === after) return true
  return before !== undefined && before.length === after.length && before.every((record, i) => record === after[i])
}
