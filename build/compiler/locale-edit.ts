/**
 * The locale stage across edits: for an author's usual edit (one published
 * file saved again, in any locale, with the same slug) only what the edit
 * reaches is linked again, from what the last link kept (locales.ts
 * `LocaleState`): the edited record in its lists, the item's versions in
 * the other locales, and the translations whose `related` show it. At 10,000
 * items with translations, linking every locale again took most of an edit.
 * Anything else (a file added, removed or renamed, a release) links in full.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import type { ContentRecord, FullRecord } from '../../contract/records.ts'
import type { BuiltContent, LocaleContent } from '../emit/types.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { sortedIndex, toSummary } from '../pipeline/derive.ts'
import type { ReplacedRecord } from './link.ts'
import { addReferrers, linkTranslation, withOthers, type LocaleState } from './locales.ts'
import { asPublished, isPublishedAt, type Schedules } from './translation-schedule.ts'

const EPOCH = '1970-01-01T00:00:00Z'

/**
 * The content after `before` was saved as `after` (`replaced`: the default
 * records the link replaced, linker.ts), updating `state` to it; undefined
 * when the edit is not one this handles (then `state` is spent: link in full).
 */
export function relinkLocales(
  state: LocaleState,
  base: BuiltContent,
  [before, after]: [CompiledFile, CompiledFile],
  replaced: readonly ReplacedRecord[],
  schedules: Schedules,
  now: number,
): BuiltContent | undefined {
  const sameItem =
    before.collection === after.collection &&
    before.key === after.key &&
    before.locale === after.locale &&
    before.slug === after.slug
  if (!sameItem || state.content.site !== base.site) return undefined
  const edit = new LocaleEdit(state, base, schedules, now)
  const done =
    after.locale === base.site.language ? edit.defaultEdited(after, replaced) : edit.translationEdited(before, after)
  return done ? edit.finish() : undefined
}

/** One list being changed: its records and their summaries, in step. */
interface List {
  records: FullRecord[]
  summaries: ContentRecord[]
}

class LocaleEdit {
  /** `locale collection` → the list as changed so far (the default locale's too). */
  private readonly lists = new Map<string, List>()

  constructor(
    private readonly state: LocaleState,
    private readonly base: BuiltContent,
    private readonly schedules: Schedules,
    private readonly now: number,
  ) {}

  /** A default-locale file saved again: its linked record, and those the link replaced with it. */
  defaultEdited(file: CompiledFile, replaced: readonly ReplacedRecord[]): boolean {
    const { state, base } = this
    const { language } = base.site
    const edited = replaced[0]
    if (edited?.collection !== file.collection || edited.after.slug !== file.slug) return false
    const touched = new Set(replaced.map((r) => r.collection))
    if (base.site.model.names.some((c) => !touched.has(c) && base.collections[c] !== state.base[c])) return false
    // The item's translations are published as bound to it: the same records while its dates are the same.
    for (const translation of state.files.get(`${file.collection}/${file.key}`)?.values() ?? []) {
      if (!isPublishedAt(translation, this.schedules, this.now)) return false
      if (asPublished(translation, translation.record!, this.schedules) !== state.recordOf.get(translation))
        return false
    }
    for (const [i, { collection, before, after }] of replaced.entries()) {
      const key = state.keyOfDefault.get(`${collection}/${before.slug}`)
      if (key === undefined || before.slug !== after.slug || before.url !== after.url) return false
      const group = state.items.get(`${collection}/${key}`)!
      const previous = state.content.collections[collection]![state.base[collection]!.indexOf(before)]
      if (!previous) return false
      group.set(language, after)
      const next = withOthers(after, group, language)
      // The edited record may have moved in its list (the first replaced); the others kept their place.
      const list = this.list(language, collection)
      if (i === 0) {
        const from = list.records.indexOf(previous)
        if (from < 0) return false
        this.remove(list, from)
      }
      this.put(list, base.collections[collection]!.indexOf(after), next, i !== 0)
      for (const locale of base.site.fallback)
        if (!group.has(locale) && !this.replace(locale, collection, previous, next)) return false
      if (!this.relinkReferrers(`${collection}/${after.slug}`)) return false
    }
    return true
  }

  /** A translation saved again (same locale and slug): its record, and the translations relating to it. */
  translationEdited(before: CompiledFile, after: CompiledFile): boolean {
    const { state } = this
    if (this.base.site.model.names.some((c) => this.base.collections[c] !== state.base[c])) return false
    const was = state.recordOf.get(before)
    const is = after.record !== undefined && isPublishedAt(after, this.schedules, this.now)
    if (!was || !is) return !was && !is
    const record = asPublished(after, after.record!, this.schedules)
    if (record.slug !== was.slug || record.url !== was.url) return false
    const { collection, locale } = after
    const id = `${collection}/${after.key}`
    state.recordOf.delete(before)
    state.recordOf.set(after, record)
    state.files.get(id)!.set(locale, after)
    state.items.get(id)!.set(locale, record)
    state.slugsOf.get(locale)!.set(`${collection}/${after.slug}`, record)
    for (const ref of before.references) state.referrers.get(ref.target)?.delete(before)
    addReferrers(state, after)
    const previous = state.linkedOf.get(before)
    state.linkedOf.delete(before)
    if (!this.replace(locale, collection, previous, linkTranslation(state, this.base.site, after))) return false
    return this.relinkReferrers(`${collection}/${after.slug}`)
  }

  /** The published translations whose `related` names `target`, linked again (a title they show may have changed). */
  private relinkReferrers(target: string): boolean {
    for (const file of this.state.referrers.get(target) ?? []) {
      const previous = this.state.linkedOf.get(file)
      const next = linkTranslation(this.state, this.base.site, file)
      if (!this.replace(file.locale, file.collection, previous, next)) return false
    }
    return true
  }

  /** In a translation locale's list, `next` in place of `previous`, where its date sorts it. */
  private replace(locale: string, collection: CollectionName, previous: FullRecord | undefined, next: FullRecord) {
    if (previous === next) return true
    const list = this.list(locale, collection)
    const from = previous ? list.records.indexOf(previous) : -1
    if (from < 0) return false
    this.remove(list, from)
    const at = sortedIndex(this.base.site.collections[collection]!, list.records, next)
    if (at === undefined) return false
    this.put(list, at, next, false)
    return true
  }

  private list(locale: string, collection: CollectionName): List {
    const id = `${locale} ${collection}`
    let list = this.lists.get(id)
    if (!list) {
      const own = locale === this.base.site.language
      const content = own ? this.state.content : this.state.content.locales![locale]!
      list = { records: [...content.collections[collection]!], summaries: [...content.summaries[collection]!] }
      this.lists.set(id, list)
    }
    return list
  }

  private remove(list: List, at: number): void {
    list.records.splice(at, 1)
    list.summaries.splice(at, 1)
  }

  private put(list: List, at: number, record: FullRecord, instead: boolean): void {
    list.records.splice(at, instead ? 1 : 0, record)
    list.summaries.splice(at, instead ? 1 : 0, toSummary(record))
  }

  /** The content with the changed lists, kept as the state's. */
  finish(): BuiltContent {
    const { state, base } = this
    const last = state.content
    const changed = (locale: string, c: CollectionName) => this.lists.get(`${locale} ${c}`)
    const collections = { ...last.collections }
    const summaries = { ...last.summaries }
    const { names } = base.site.model
    for (const c of names) {
      const list = changed(base.site.language, c)
      if (!list) continue
      // As a full link does: the base list itself while no record in it names translations.
      const same = list.records.every((r, i) => r === base.collections[c]![i])
      collections[c] = same ? base.collections[c]! : list.records
      summaries[c] = same ? base.summaries[c]! : list.summaries
    }
    const locales: Record<string, LocaleContent> = {}
    for (const [locale, content] of Object.entries(last.locales ?? {})) {
      if (!names.some((c) => changed(locale, c))) {
        locales[locale] = content
        continue
      }
      const next: LocaleContent = {
        ...content,
        collections: { ...content.collections },
        summaries: { ...content.summaries },
      }
      for (const c of names) {
        const list = changed(locale, c)
        if (list) [next.collections[c], next.summaries[c]] = [list.records, list.summaries]
      }
      next.contentUpdatedAt = latestUpdate(next)
      locales[locale] = next
    }
    state.base = base.collections
    state.content = { ...base, collections, summaries, locales }
    return state.content
  }
}

/** A locale's latest updated_at, as a full link finds it. */
function latestUpdate(content: LocaleContent): string {
  let latest = EPOCH
  for (const records of Object.values(content.collections))
    for (const r of records) if (r.updated_at > latest) latest = r.updated_at
  return latest
}
