/**
 * Where each API answer lives in dist/. Slugs cannot start with `_`, so the
 * `_list` folder never collides with an item.
 */
import { MAX_LIMIT } from './routes/parameters.ts'

export const MANIFEST_FILE = '_build/manifest.json'

export function listFile(collection: string, limit: number): string {
  return `api/${collection}/_list/limit-${limit}.json`
}

export function itemFile(collection: string, slug: string): string {
  return `api/${collection}/${slug}.json`
}

export const PRERENDERED_LIMITS: readonly number[] = Array.from({ length: MAX_LIMIT }, (_, i) => i + 1)

/** Where a locale's answers live (a multilingual site's other locales): `_locales/<tag>/` beside the default ones. */
export function localeListFile(collection: string, locale: string, limit: number): string {
  return `api/${collection}/_locales/${locale}/_list/limit-${limit}.json`
}

export function localeItemFile(collection: string, locale: string, slug: string): string {
  return `api/${collection}/_locales/${locale}/${slug}.json`
}

/** A locale's change log (the default's is contract/changes.ts CHANGE_LOG_FILE), which `?since=` is answered from. */
export function localeChangeLogFile(locale: string): string {
  return `_build/_locales/${locale}/changes.json`
}

/** The first page of a locale's change feed (`GET /api/changes?locale=<tag>`); the default's is CHANGES_FILE. */
export function localeChangesFile(locale: string): string {
  return `api/_locales/${locale}/_changes.json`
}

/**
 * The file of a record as a locale's answer: a translation's own, or (a default-locale
 * record standing in where the locale falls back) the default locale's.
 */
export function itemFileIn(
  collection: string,
  record: { slug: string; locale?: string },
  defaultLocale: string,
): string {
  return record.locale === undefined || record.locale === defaultLocale
    ? itemFile(collection, record.slug)
    : localeItemFile(collection, record.locale, record.slug)
}
