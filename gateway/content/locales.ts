/**
 * A multilingual build as the read routes and MCP tools see it: which
 * locale a request reads (contract/locales.ts), each locale's list form,
 * and an item found by any of its slugs in the locale asked for. A
 * single-language build has none of this: its answers stay as they were,
 * and `locale` is a parameter it ignores like any unknown one.
 */
import type { H3Event } from 'h3'
import type { CollectionName } from '../../contract/collections.ts'
import { chooseLocale, siteLocales, type ChosenLocale, type SiteLocales } from '../../contract/locales.ts'
import { itemFileIn } from '../../contract/paths.ts'
import type { ParameterError } from '../../contract/query.ts'
import type { ContentRecord } from '../../contract/records.ts'
import { MemoKey, type Snapshot } from '../snapshot.ts'

/** Whether the build publishes several locales. */
export function isMultilingual(snapshot: Snapshot): boolean {
  return snapshot.manifest.locales !== undefined
}

export function localesOf(snapshot: Snapshot): SiteLocales {
  return siteLocales(snapshot.manifest.locales)
}

/** The request's locale (undefined for a single-language build); a bad `locale` is added to `errors`. */
export function requestLocale(
  event: H3Event,
  snapshot: Snapshot,
  errors: ParameterError[],
  params: URLSearchParams = event.url.searchParams,
): ChosenLocale | undefined {
  if (!isMultilingual(snapshot)) return undefined
  return chooseLocale(params, event.req.headers.get('accept-language'), localesOf(snapshot), errors)
}

/** A locale's records of a collection in list form, newest first (the default's are the manifest's collections). */
export function summariesIn(
  snapshot: Snapshot,
  collection: CollectionName,
  locale: string | undefined,
): readonly ContentRecord[] {
  const locales = snapshot.manifest.locales
  if (!locales || locale === undefined || locale === locales.default) return snapshot.summaries(collection)
  return locales.collections[locale]?.[collection] ?? []
}

/** The headers of an answer in `locale`: Content-Language, and Vary when Accept-Language chose it. */
export function localeHeaders(chosen: ChosenLocale | undefined, contentLocale?: string): Record<string, string> {
  if (!chosen) return {}
  const headers: Record<string, string> = { 'content-language': contentLocale ?? chosen.locale }
  if (chosen.negotiated) headers.vary = 'Accept-Language'
  return headers
}

/** Every locale's version of each item, by collection and by every slug it has in any locale. */
const ITEMS = new MemoKey<Map<CollectionName, Map<string, Map<string, ContentRecord>>>>('items by slug and locale')

function itemsOf(snapshot: Snapshot, collection: CollectionName): Map<string, Map<string, ContentRecord>> {
  const all = snapshot.memo(ITEMS, () => new Map())
  let bySlug = all.get(collection)
  if (bySlug) return bySlug
  bySlug = new Map()
  const { available } = localesOf(snapshot)
  const groups: Map<string, ContentRecord>[] = []
  const groupOf = new Map<string, Map<string, ContentRecord>>()
  for (const locale of available)
    for (const record of summariesIn(snapshot, collection, locale)) {
      if (record.locale !== locale) continue
      const id = `${locale}\0${record.slug}`
      let group = groupOf.get(id)
      if (!group) groups.push((group = new Map()))
      group.set(locale, record)
      for (const t of record.translations ?? []) groupOf.set(`${t.locale}\0${t.slug}`, group)
    }
  // Slugs are unique per locale, not across them: a slug of the locale asked for wins (resolveItem).
  for (const group of groups)
    for (const record of group.values()) if (!bySlug.has(record.slug)) bySlug.set(record.slug, group)
  for (const group of groups) for (const record of group.values()) bySlug.set(`${record.locale}\0${record.slug}`, group)
  all.set(collection, bySlug)
  return bySlug
}

/**
 * The file answering `slug` in `locale`: the item's version in that locale,
 * found by its slug in any locale (a reader switching languages knows the
 * slug of the one it reads); else, where the locale falls back or
 * Accept-Language chose it, the default locale's version. Undefined when
 * the item has no version to give.
 */
export function resolveItem(
  snapshot: Snapshot,
  collection: CollectionName,
  slug: string,
  chosen: ChosenLocale,
): { file: string; record: ContentRecord } | undefined {
  const locales = localesOf(snapshot)
  const items = itemsOf(snapshot, collection)
  const group = items.get(`${chosen.locale}\0${slug}`) ?? items.get(`${locales.default}\0${slug}`) ?? items.get(slug)
  if (!group) return undefined
  // Accept-Language is a preference: an item in none of its locales is still answered, in the default if it can be.
  const record =
    group.get(chosen.locale) ??
    (chosen.negotiated || locales.fallback.includes(chosen.locale) ? group.get(locales.default) : undefined) ??
    (chosen.negotiated ? group.values().next().value : undefined)
  return record && { file: itemFileIn(collection, record, locales.default), record }
}
