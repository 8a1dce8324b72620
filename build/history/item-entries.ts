/**
 * What one item shows in each locale's change feed at one instant: the
 * records its public files make there. An item is its files sharing a key
 * (`x.md`, `x.de.md`, `x/index.fr.md`); in locale L its record is its public
 * L file, or, where L falls back, its public default file. A record's
 * version is its file's path and bytes and its hreflang data (the item's
 * other public versions, each locale's slug): a translation appearing changes
 * the bytes of the records naming it, so it is an update of theirs.
 *
 * Entries are keyed as the feed counts them: the default locale's by
 * collection and slug (as the feed always did), another locale's by
 * collection, slug and the record's locale, so a translation's tombstone and
 * the default record standing in for it are two entries.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import { isLive, translationPublication, type Publication } from '../pipeline/schedule.ts'
import { localeOfFile, type ReplaySite } from './replay-site.ts'
import type { FileState } from './types.ts'

/** A record an item shows in a feed, and what its version is made of. */
export interface Candidate {
  path: string
  blob: string
  collection: CollectionName
  slug: string
  /** The record's locale: the feed's own, or the default's where the feed falls back. */
  locale: string
  /** The record's translations as `<locale>:<slug>`, one per other locale with a public version. */
  hreflang: string
}

export interface ViewEntry {
  /** The feed: a locale of the site. */
  view: string
  /** Which entry of that feed (entryKey). */
  entry: string
  candidate: Candidate
}

/** The key of a record in a feed (see the module comment). */
export function entryKey(view: string, site: ReplaySite, collection: string, slug: string, locale: string): string {
  return view === site.language ? `${collection}/${slug}` : `${collection}/${slug}\0${locale}`
}

/** The item's key in the replay's maps. */
export function itemOf(state: Pick<FileState, 'collection' | 'key'>): string {
  return `${state.collection}/${state.key}`
}

/** A file's own publication, as pipeline/schedule.ts reads a compiled file's. */
const publicationOf = (state: FileState): Publication => ({ draft: !state.published, window: state.window })

/** The entries of one item's files (any order) in every feed, judged public at `at` (seconds). */
export function itemEntries(
  files: readonly (FileState & { path: string })[],
  site: ReplaySite,
  at: number,
): ViewEntry[] {
  const byLocale = new Map<string, (FileState & { path: string })[]>()
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const locale = localeOfFile(file, site)
    if (locale === undefined) continue
    let list = byLocale.get(locale)
    if (!list) byLocale.set(locale, (list = []))
    list.push(file)
  }
  // A translation is published as the build publishes it: while both it and its item (the default file) are.
  const item = byLocale.get(site.language)?.[0]
  const published = new Map<string, (FileState & { path: string })[]>()
  for (const [locale, list] of byLocale) {
    const open = list.filter((f) => {
      const { draft, window } =
        locale === site.language
          ? publicationOf(f)
          : translationPublication(publicationOf(f), item && publicationOf(item))
      return !draft && isLive(window, at)
    })
    if (open.length) published.set(locale, open)
  }
  if (published.size === 0) return []
  const hreflang = (own: string) =>
    site.locales.flatMap((l) => (l !== own && published.has(l) ? [`${l}:${published.get(l)![0]!.slug}`] : [])).join(' ')
  const out: ViewEntry[] = []
  const add = (view: string, file: FileState & { path: string }, locale: string, translations: string) =>
    out.push({
      view,
      entry: entryKey(view, site, file.collection, file.slug, locale),
      candidate: {
        path: file.path,
        blob: file.blob,
        collection: file.collection,
        slug: file.slug,
        locale,
        hreflang: translations,
      },
    })
  const defaults = published.get(site.language) ?? []
  const defaultHreflang = defaults.length ? hreflang(site.language) : ''
  for (const file of defaults) add(site.language, file, site.language, defaultHreflang)
  for (const view of site.locales.slice(1)) {
    const own = published.get(view)
    if (own) {
      const translations = hreflang(view)
      for (const file of own) add(view, file, view, translations)
    } else if (site.fallback.includes(view)) {
      for (const file of defaults) add(view, file, site.language, defaultHreflang)
    }
  }
  return out
}
