/**
 * Addresses that are no longer an item's: the build finds them in content/'s
 * git history (build/emit/redirects.ts) and writes their index, which the
 * gateway answers from (301 to where the item is now, 410 for a deleted one)
 * and the Netlify rules are written from, so both answer alike. Per locale,
 * since slugs are: each locale's addresses that were once public and are not
 * now, by collection and slug. A chain of moves is one hop (the target is
 * always a live item) and a live item is never redirected.
 */
import type { CollectionName } from './model/model.ts'
import type { SiteLocales } from './locales.ts'
import { problemTypeUri, PROBLEM_TYPES } from './problems.ts'

export const REDIRECT_INDEX_FILE = '_build/redirects.json'
export const REDIRECT_INDEX_FORMAT = 1
/** The pre-rendered answer of `GET /api/redirects`. */
export const REDIRECTS_FILE = 'api/_redirects.json'

/** A deleted item as the change feed's tombstone names it. */
export interface Tombstone {
  id: string
  collection: CollectionName
  slug: string
  /** A multilingual site's: the locale of the record deleted. */
  locale?: string
  /** When it was deleted: the tombstone's `changed_at`. */
  deleted_at: string
}

/** An old address of a live item: its slug now, and its collection where it moved to another. */
export interface Moved {
  to: string
  collection?: CollectionName
}

/** Where an old address leads: the item's slug now, or its tombstone. */
export type Fate = Moved | { gone: Tombstone }

export interface RedirectIndex {
  format: typeof REDIRECT_INDEX_FORMAT
  /** By locale (a single-language site's is its `language`), collection and old slug. */
  locales: Record<string, Partial<Record<CollectionName, Record<string, Fate>>>>
}

/** One redirect for the marketing site: its page URLs (the records' `url`), and 301, or 410 with no target. */
export interface RedirectEntry {
  from: string
  to: string | null
  status: 301 | 410
  /** A multilingual site's: the locale whose address it is. */
  locale?: string
}

export interface RedirectsEnvelope {
  data: RedirectEntry[]
  meta: { count: number }
}

/**
 * The fate of `slug` in `collection`: in the locale asked for (`locale`, given explicitly), else
 * the default's, else any other locale's (a slug is found in any locale, as items are), with the
 * locale whose it is.
 */
export function findFate(
  index: RedirectIndex,
  site: Pick<SiteLocales, 'default' | 'available'>,
  collection: CollectionName,
  slug: string,
  locale?: string,
): { locale: string; fate: Fate } | undefined {
  // The index's own locales last: a single-language site's manifest names no locale of its own.
  const order = [
    ...(locale === undefined ? [] : [locale]),
    site.default,
    ...site.available,
    ...Object.keys(index.locales),
  ]
  for (const l of order) {
    const fate = index.locales[l]?.[collection]?.[slug]
    if (fate) return { locale: l, fate }
  }
  return undefined
}

/** The API path an address that moved leads to. */
export function movedTo(collection: CollectionName, fate: Moved): string {
  return `/api/${fate.collection ?? collection}/${fate.to}`
}

/** The problem body of a deleted item's address (410), naming its tombstone. */
export function goneBody(tombstone: Tombstone): string {
  const { title, status } = PROBLEM_TYPES.gone
  const where = tombstone.locale === undefined ? '' : ` (${tombstone.locale})`
  return JSON.stringify({
    type: problemTypeUri('gone'),
    title,
    status,
    detail: `The ${tombstone.collection} item "${tombstone.slug}"${where} was deleted at ${tombstone.deleted_at}. The change feed (/api/changes) lists its tombstone, id ${tombstone.id}.`,
    tombstone,
  })
}
