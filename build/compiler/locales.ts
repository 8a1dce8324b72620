/**
 * The locale stage: translations put together once the default locale's
 * content is linked. A translation is a file of its own (`my-post.de.md`
 * beside `my-post.md`, or `index.de.md` in the item's folder) sharing the
 * item's key; it is validated on its own, may have its own slug, and its
 * `related` entries name items of its own locale (or, where site.yaml lets
 * the locale fall back, an item of the default locale that has no
 * translation in it). Every record of a multilingual site names its
 * translations (locale, slug, page URL) for hreflang.
 *
 * A locale's published content is its translations, plus, for a locale that
 * falls back, the default locale's items it has no translation of (records
 * of the default locale, unchanged). A translation is published while both
 * it and its item are (translation-schedule.ts); its references and links are
 * checked in translation-links.ts. Records keep their object while
 * nothing they show changed, so the emitters render only what did.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import type { FullRecord, RelatedItem, Translation } from '../../contract/records.ts'
import { isMultilingual, type SiteConfig } from '../core/site.ts'
import type { BuiltContent, LocaleContent } from '../emit/types.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { addToSet } from '../core/set-map.ts'
import { sortRecords, toSummary } from '../pipeline/derive.ts'
import { isPublished } from './assemble.ts'
import { asPublished, isPublishedAt, type Schedules } from './translation-schedule.ts'
import { withReferences } from './link.ts'

/** The default locale's files and the translations, apart (a single-language site has no translations). */
export function byLocale(site: SiteConfig, files: Iterable<CompiledFile>): [CompiledFile[], CompiledFile[]] {
  const own: CompiledFile[] = []
  const translations: CompiledFile[] = []
  for (const file of files) (file.locale === site.language ? own : translations).push(file)
  return [own, translations]
}

const withTranslations = new WeakMap<FullRecord, { key: string; record: FullRecord }>()
const linkedTranslation = new WeakMap<FullRecord, { key: string; record: FullRecord }>()

/** What linking the locales keeps for the next edit (locale-edit.ts): the indexes below, and what they made. */
export interface LocaleState {
  /** The linked default-locale records, the releases and the content last linked. */
  base: BuiltContent['collections']
  content: BuiltContent
  /** `collection/key` → the item's records by locale (the default's linked ones, translations as published). */
  items: Map<string, Map<string, FullRecord>>
  /** `collection/key` → the item's published translations by locale. */
  files: Map<string, Map<string, CompiledFile>>
  /** `collection/slug` of a published default-locale record → its item's key. */
  keyOfDefault: Map<string, string>
  /** Per locale, its published translations' records by `collection/slug`. */
  slugsOf: Map<string, Map<string, FullRecord>>
  /** Each published translation's record as published, and as linked (what its locale lists). */
  recordOf: Map<CompiledFile, FullRecord>
  linkedOf: Map<CompiledFile, FullRecord>
  /** The published translations whose `related` names each `collection/slug`. */
  referrers: Map<string, Set<CompiledFile>>
}

/**
 * Link the translations against the linked default content and name every
 * record's translations. Call only when the translation checks (translation-checks.ts) and
 * `translationLinkErrors` (translation-links.ts) found none. A translation is
 * published while it and its item both are (`releases`, translation-schedule.ts).
 * A single-language site's content is `base` itself (no state).
 */
export function linkLocales(
  base: BuiltContent,
  own: Iterable<CompiledFile>,
  translations: readonly CompiledFile[],
  schedules: Schedules,
  now: number,
): { content: BuiltContent; state?: LocaleState } {
  const { site } = base
  if (!isMultilingual(site)) return { content: base }
  // Published as of the build's clock: inside both the translation's own window and its item's.
  const published = translations.filter((f) => f.record && isPublishedAt(f, schedules, now))
  const state: LocaleState = {
    base: base.collections,
    content: base,
    items: new Map(),
    files: new Map(),
    keyOfDefault: new Map(),
    slugsOf: new Map(site.locales.slice(1).map((l) => [l, new Map()])),
    recordOf: new Map(published.map((f) => [f, asPublished(f, f.record!, schedules)])),
    linkedOf: new Map(),
    referrers: new Map(),
  }
  const { items, keyOfDefault, recordOf } = state
  const defaultBySlug = new Map<string, FullRecord>()
  const { names } = site.model
  for (const c of names) for (const r of base.collections[c]!) defaultBySlug.set(`${c}/${r.slug}`, r)
  for (const file of own)
    if (file.record && isPublished(file, now)) {
      const record = defaultBySlug.get(`${file.collection}/${file.slug}`)
      if (record) {
        groupOf(items, file).set(site.language, record)
        keyOfDefault.set(`${file.collection}/${file.slug}`, file.key)
      }
    }
  for (const file of published) {
    groupOf(items, file).set(file.locale, recordOf.get(file)!)
    groupOf(state.files, file).set(file.locale, file)
    state.slugsOf.get(file.locale)?.set(`${file.collection}/${file.slug}`, recordOf.get(file)!)
    addReferrers(state, file)
  }

  // The default locale's records, naming their translations.
  const collections = {} as BuiltContent['collections']
  const summaries = {} as BuiltContent['summaries']
  for (const c of names) {
    const records = base.collections[c]!.map((record) => {
      const key = keyOfDefault.get(`${c}/${record.slug}`)
      return withOthers(record, key === undefined ? undefined : items.get(`${c}/${key}`), site.language)
    })
    const same = records.every((r, i) => r === base.collections[c]![i])
    collections[c] = same ? base.collections[c]! : records
    summaries[c] = same ? base.summaries[c]! : records.map(toSummary)
  }
  const locales: Record<string, LocaleContent> = {}
  for (const locale of site.locales.slice(1)) {
    const fallback = site.fallback.includes(locale)
    const localeCollections = {} as LocaleContent['collections']
    const localeSummaries = {} as LocaleContent['summaries']
    let contentUpdatedAt = '1970-01-01T00:00:00Z'
    for (const c of names) {
      const records: FullRecord[] = []
      for (const file of published) {
        if (file.locale !== locale || file.collection !== c) continue
        records.push(linkTranslation(state, site, file))
      }
      if (fallback)
        for (const record of collections[c]!) {
          const key = keyOfDefault.get(`${c}/${record.slug}`)
          if (key === undefined || !items.get(`${c}/${key}`)?.has(locale)) records.push(record)
        }
      const sorted = sortRecords(site.collections[c]!, records)
      localeCollections[c] = sorted
      localeSummaries[c] = sorted.map(toSummary)
      for (const r of records) if (r.updated_at > contentUpdatedAt) contentUpdatedAt = r.updated_at
    }
    locales[locale] = { locale, fallback, collections: localeCollections, summaries: localeSummaries, contentUpdatedAt }
  }
  state.content = { ...base, collections, summaries, locales }
  return { content: state.content, state }
}

/** The records (or files) of `file`'s item by locale, made when missing. */
function groupOf<T>(map: Map<string, Map<string, T>>, file: CompiledFile): Map<string, T> {
  const id = `${file.collection}/${file.key}`
  let group = map.get(id)
  if (!group) map.set(id, (group = new Map()))
  return group
}

/** Index a published translation's `related` targets (the records whose change it shows). */
export function addReferrers(state: LocaleState, file: CompiledFile): void {
  for (const ref of file.references) addToSet(state.referrers, ref.target, file)
}

/** A published translation's record as its locale lists it: related items resolved, translations named (kept in `linkedOf`). */
export function linkTranslation(state: LocaleState, site: SiteConfig, file: CompiledFile): FullRecord {
  const related = resolveReferences(file, site, state.items, state.keyOfDefault, state.slugsOf.get(file.locale)!)
  const linked = withRelated(state.recordOf.get(file)!, file, related)
  const record = withOthers(linked, state.items.get(`${file.collection}/${file.key}`), file.locale)
  state.linkedOf.set(file, record)
  return record
}

/**
 * The items a translation's `related` names, in its own locale: a slug of
 * that locale, or (where the locale falls back) a default-locale item
 * without a translation in it. translation-links.ts has refused any other
 * target, and any that is not public whenever the translation is.
 */
function resolveReferences(
  file: CompiledFile,
  site: SiteConfig,
  items: ReadonlyMap<string, ReadonlyMap<string, FullRecord>>,
  keyOfDefault: ReadonlyMap<string, string>,
  inLocale: ReadonlyMap<string, FullRecord>,
): (RelatedItem | undefined)[] {
  const locale = file.locale
  const out: (RelatedItem | undefined)[] = []
  for (const ref of file.references) {
    const [collection] = ref.target.split('/') as [CollectionName]
    const local = inLocale.get(ref.target)
    const key = keyOfDefault.get(ref.target)
    const fallback =
      !local && key !== undefined && site.fallback.includes(locale) && !items.get(`${collection}/${key}`)?.has(locale)
    const record = local ?? (fallback ? items.get(`${collection}/${key}`)!.get(site.language) : undefined)
    out.push(record && { collection, slug: record.slug, title: record.title, url: record.url as string })
  }
  return out
}

/** `record` with its references resolved: the same object while they show the same. */
function withRelated(record: FullRecord, file: CompiledFile, items: (RelatedItem | undefined)[]): FullRecord {
  const key = JSON.stringify(items)
  const previous = linkedTranslation.get(record)
  if (previous?.key === key) return previous.record
  const next = file.references.length === 0 ? record : withReferences(record, file.references, items)
  linkedTranslation.set(record, { key, record: next })
  return next
}

/** `record` naming the item's other locales (locale, slug, page URL), the same object while they do not change. */
export function withOthers(
  record: FullRecord,
  byLocale: ReadonlyMap<string, FullRecord> | undefined,
  locale: string,
): FullRecord {
  const translations: Translation[] = []
  for (const [other, r] of byLocale ?? [])
    if (other !== locale) translations.push({ locale: other, slug: r.slug, url: r.url as string })
  translations.sort((a, b) => (a.locale < b.locale ? -1 : 1))
  const key = JSON.stringify(translations)
  if (key === JSON.stringify(record.translations ?? [])) return record
  const previous = withTranslations.get(record)
  if (previous?.key === key) return previous.record
  const next = { ...record, translations }
  withTranslations.set(record, { key, record: next })
  return next
}
