/**
 * A multilingual build as the read routes and MCP tools see it: which
 * locale a request reads (contract/locales.ts), each locale's list form,
 * and an item found by any of its slugs in the locale asked for. A
 * single-language build has none of this: its answers stay as they were,
 * and `locale` is a parameter it ignores like any unknown one.
 */
import type { H3Event } from 'h3'
import type { CollectionName } from '../../contract/model/model.ts'
import {
  checkLocaleSyntax,
  chooseLocale,
  itemIndex,
  itemIndexAfter,
  resolveItem,
  siteLocales,
  type ChosenLocale,
  type ItemIndex,
  type SiteLocales,
} from '../../contract/locales.ts'
import { itemFileIn } from '../../contract/paths.ts'
import type { ParameterError } from '../../contract/query-values.ts'
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
  if (!isMultilingual(snapshot)) {
    checkLocaleSyntax(params, errors)
    return undefined
  }
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

/** A collection's item index, and the lists (one per available locale, in the order `locales` names them) it was made from. */
interface ItemsOf {
  locales: string
  lists: (readonly ContentRecord[])[]
  index: ItemIndex
}

const ITEMS = new MemoKey<Map<CollectionName, ItemsOf>>('items by slug and locale')

/** The file answering `slug` in the chosen locale (contract/locales.ts resolveItem), and its record. */
export function findItem(
  snapshot: Snapshot,
  collection: CollectionName,
  slug: string,
  chosen: ChosenLocale,
): { file: string; record: ContentRecord } | undefined {
  const site = localesOf(snapshot)
  const all = snapshot.memo(ITEMS, () => new Map<CollectionName, ItemsOf>())
  let items = all.get(collection)
  if (!items) {
    const locales = [site.default, ...site.available].join(' ')
    const lists = site.available.map((locale) => summariesIn(snapshot, collection, locale))
    // After an edit in the dev server: the last snapshot's index with the edited records in it, when it can take them.
    const before = snapshot.previousMemo(ITEMS)?.get(collection)
    const index =
      (before?.locales === locales && itemIndexAfter(site, before.index, before.lists, lists)) ||
      itemIndex(site, (locale) => lists[site.available.indexOf(locale)]!)
    all.set(collection, (items = { locales, lists, index }))
  }
  const record = resolveItem(items.index, site, slug, chosen)
  return record && { file: itemFileIn(collection, record, site.default), record }
}

/**
 * The locale an MCP tool call asks for (its `locale` argument): one of the site's, matched
 * without regard to case; undefined for the default (or a single-language site, which ignores a
 * well-formed one).
 * An unknown one is a message for the model, naming the choices.
 */
export function toolLocale(
  snapshot: Snapshot,
  given: string | undefined,
): { ok: true; locale: string | undefined } | { ok: false; message: string } {
  if (given === undefined) return { ok: true, locale: undefined }
  const errors: ParameterError[] = []
  const params = new URLSearchParams({ locale: given })
  // As REST: a single-language site ignores a well-formed locale only.
  if (!isMultilingual(snapshot)) {
    checkLocaleSyntax(params, errors)
    return errors.length ? { ok: false, message: `locale ${errors[0]!.message}` } : { ok: true, locale: undefined }
  }
  const { locale } = chooseLocale(params, undefined, localesOf(snapshot), errors)
  if (errors.length) return { ok: false, message: `locale ${errors[0]!.message}` }
  return { ok: true, locale: locale === localesOf(snapshot).default ? undefined : locale }
}

const BY_SLUG = new MemoKey<Map<string, ReadonlyMap<string, ContentRecord>>>('records by locale and slug')

/** A locale's records of a collection by slug (the default's: the snapshot's own index). */
export function recordsBySlug(
  snapshot: Snapshot,
  collection: CollectionName,
  locale: string | undefined,
): ReadonlyMap<string, ContentRecord> {
  if (locale === undefined) return snapshot.bySlug(collection)
  const all = snapshot.memo(BY_SLUG, () => new Map<string, ReadonlyMap<string, ContentRecord>>())
  const key = `${locale}\0${collection}`
  let map = all.get(key)
  if (!map) all.set(key, (map = new Map(summariesIn(snapshot, collection, locale).map((r) => [r.slug, r]))))
  return map
}
