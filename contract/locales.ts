/**
 * Which locale a request reads, the same in the gateway, the MCP tools and
 * the build's links: the `locale` query parameter (one of the site's locales,
 * matched without regard to case), else the best of the site's locales for
 * the request's Accept-Language (RFC 9110 §12.5.4 weights, RFC 4647 lookup:
 * `de-CH` falls back to `de`; then another region of the language, `pt-PT`
 * takes `pt-BR`), else the default locale.
 */
import type { ManifestLocales } from './manifest.ts'
import type { ParameterError } from './query-values.ts'
import type { ContentRecord } from './records.ts'

/** The longest locale tag a request may give (BCP 47 allows 35 characters in practice). */
export const MAX_LOCALE_LENGTH = 35
export const LOCALE_QUERY_PATTERN = '^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$'
const LOCALE_RE = new RegExp(LOCALE_QUERY_PATTERN)

/** A site's locales as the gateway knows them: a single-language build has only its default. */
export interface SiteLocales {
  default: string
  available: readonly string[]
  fallback: readonly string[]
}

export function siteLocales(locales: ManifestLocales | undefined, language = 'en'): SiteLocales {
  return locales ?? { default: language, available: [language], fallback: [] }
}

/**
 * A single-language site's check of `locale`: a BCP 47 tag, given once (the document's bounds),
 * else an error; a well-formed one is ignored, as any locale would be.
 */
export function checkLocaleSyntax(params: URLSearchParams, errors: ParameterError[]): void {
  const values = params.getAll('locale')
  if (values.length > 1) errors.push({ parameter: 'locale', message: 'must be given once' })
  else if (values.length === 1 && !(values[0]!.length <= MAX_LOCALE_LENGTH && LOCALE_RE.test(values[0]!)))
    errors.push({
      parameter: 'locale',
      message: `must be a BCP 47 language tag like de or pt-BR, got ${JSON.stringify(values[0]!.slice(0, 40))}`,
    })
}

/** What a request reads: the locale, and whether Accept-Language chose it (the answer then varies by it). */
export interface ChosenLocale {
  locale: string
  negotiated: boolean
}

/**
 * The `locale` parameter's locale (an error when it is not one of the site's),
 * else the negotiated one. A single-language site negotiates nothing.
 */
export function chooseLocale(
  params: URLSearchParams,
  acceptLanguage: string | null | undefined,
  site: SiteLocales,
  errors: ParameterError[],
): ChosenLocale {
  const values = params.getAll('locale')
  if (values.length > 1) errors.push({ parameter: 'locale', message: 'must be given once' })
  if (values.length === 1) {
    const given = values[0]!
    const found = site.available.find((l) => l.toLowerCase() === given.toLowerCase())
    if (found) return { locale: found, negotiated: false }
    errors.push({
      parameter: 'locale',
      message: `must be one of this site's locales (${site.available.join(', ')}), got ${JSON.stringify(given.slice(0, 40))}${LOCALE_RE.test(given) ? '' : ': a BCP 47 tag like de or pt-BR'}`,
    })
    return { locale: site.default, negotiated: false }
  }
  if (site.available.length < 2) return { locale: site.default, negotiated: false }
  return { locale: negotiateLocale(acceptLanguage, site), negotiated: true }
}

/**
 * The site's locale for an Accept-Language header: the highest-weighted range
 * that one of the site's locales satisfies, the default when none does.
 *
 * @example negotiateLocale('fr-CH, de;q=0.8', { default: 'en', available: ['en', 'de', 'fr'], fallback: [] }) // 'fr'
 */
export function negotiateLocale(header: string | null | undefined, site: SiteLocales): string {
  if (!header) return site.default
  const ranges = header
    .slice(0, 1000)
    .split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.trim().split(';')
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1]).find(Boolean)
      return { range: range.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index }
    })
    .filter((r) => r.range && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  const lower = site.available.map((l) => l.toLowerCase())
  for (const { range } of ranges) {
    if (range === '*') return site.default
    // Lookup: the range, then ever shorter prefixes of it (de-CH-1996 → de-CH → de).
    for (let tag = range; tag; tag = tag.includes('-') ? tag.slice(0, tag.lastIndexOf('-')) : '') {
      const i = lower.indexOf(tag)
      if (i >= 0) return site.available[i]!
    }
    // Else another region of the same language (de → de-AT, pt-PT → pt-BR): closer than the default.
    const language = range.split('-')[0]!
    const i = lower.findIndex((l) => l.split('-')[0] === language)
    if (i >= 0) return site.available[i]!
  }
  return site.default
}

/** Each item's versions by locale, reachable by every slug it has (`<locale>\0<slug>`, and the bare slug). */
export type ItemIndex = Map<string, ReadonlyMap<string, ContentRecord>>

/** The index of one collection, from each locale's records (a locale's list may hold default-locale records: skipped). */
export function itemIndex(site: SiteLocales, recordsIn: (locale: string) => readonly ContentRecord[]): ItemIndex {
  const index: ItemIndex = new Map()
  const groupOf = new Map<string, Map<string, ContentRecord>>()
  const groups: Map<string, ContentRecord>[] = []
  for (const locale of site.available)
    for (const record of recordsIn(locale)) {
      if ((record.locale ?? site.default) !== locale) continue
      let group = groupOf.get(`${locale}\0${record.slug}`)
      if (!group) groups.push((group = new Map()))
      group.set(locale, record)
      for (const t of record.translations ?? []) groupOf.set(`${t.locale}\0${t.slug}`, group)
    }
  for (const group of groups)
    for (const [locale, record] of group) {
      index.set(`${locale}\0${record.slug}`, group)
      if (!index.has(record.slug)) index.set(record.slug, group)
    }
  return index
}

/** Edits an item index can take in place: at most this many records replaced (more: it is made again). */
const MAX_REPLACED = 32

/**
 * `index`, made from `before` (each available locale's records, in
 * `site.available`'s order), brought to `after`: the dev server's next
 * snapshot after an edit, whose lists differ by a few records replaced in
 * place (same slugs, same translations: the groups keep their shape, with
 * the new records in them). Undefined when the lists differ otherwise (a new
 * date moved a record, a slug or translation changed, an item came or went):
 * then the index is made again. Never changes `index`.
 */
export function itemIndexAfter(
  site: SiteLocales,
  index: ItemIndex,
  before: readonly (readonly ContentRecord[])[],
  after: readonly (readonly ContentRecord[])[],
): ItemIndex | undefined {
  // The lists of other locales (site.yaml changed): another index.
  if (before.length !== after.length || after.length !== site.available.length) return undefined
  const replaced: [locale: string, old: ContentRecord, now: ContentRecord][] = []
  for (const [i, locale] of site.available.entries()) {
    const [was, is] = [before[i], after[i]]
    if (was === is) continue
    if (!was || !is || was.length !== is.length) return undefined
    for (let j = 0; j < is.length; j++) {
      const [old, now] = [was[j]!, is[j]!]
      if (old === now) continue
      // A default-locale record standing in for a missing translation is not indexed under this locale.
      const own = (now.locale ?? site.default) === locale
      if (own !== ((old.locale ?? site.default) === locale)) return undefined
      if (!own) continue
      if (old.slug !== now.slug || !sameTranslations(old, now) || replaced.push([locale, old, now]) > MAX_REPLACED)
        return undefined
    }
  }
  if (!replaced.length) return index
  const next: ItemIndex = new Map(index)
  for (const [locale, old, now] of replaced) {
    const group = next.get(`${locale}\0${old.slug}`)
    if (group?.get(locale) !== old) return undefined
    const updated = new Map(group)
    updated.set(locale, now)
    for (const [l, record] of group)
      for (const key of [`${l}\0${record.slug}`, record.slug]) if (next.get(key) === group) next.set(key, updated)
  }
  return next
}

function sameTranslations(a: ContentRecord, b: ContentRecord): boolean {
  const [x, y] = [a.translations ?? [], b.translations ?? []]
  return x.length === y.length && x.every((t, i) => t.locale === y[i]!.locale && t.slug === y[i]!.slug)
}

/**
 * The record answering `slug` in the chosen locale: the item's version in
 * that locale, the item found by its slug in any locale (a reader switching
 * languages knows the slug of the one it reads, the locale's own first);
 * else, where the locale falls back, the default locale's version; else,
 * where Accept-Language chose the locale (a preference), the default's or
 * the one the item has. Undefined when there is none to give.
 */
export function resolveItem(
  index: ItemIndex,
  site: SiteLocales,
  slug: string,
  chosen: ChosenLocale,
): ContentRecord | undefined {
  const group = index.get(`${chosen.locale}\0${slug}`) ?? index.get(`${site.default}\0${slug}`) ?? index.get(slug)
  if (!group) return undefined
  return (
    group.get(chosen.locale) ??
    (chosen.negotiated || site.fallback.includes(chosen.locale) ? group.get(site.default) : undefined) ??
    (chosen.negotiated ? group.values().next().value : undefined)
  )
}
