/**
 * Reading the built artifacts for MCP: the same snapshot, item files and
 * list index the REST routes answer from, so an agent and a REST client see
 * the same content.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import type { ContentRecord, FullRecord } from '../../contract/records.ts'
import type { Snapshot } from '../artifacts.ts'
import { readItem, readRecord } from '../content/items.ts'
import { findItem } from '../content/locales.ts'

export const RESOURCE_SCHEME = 'content:'

/**
 * An item's resource: `content://{collection}/{slug}`, and a translation's with its locale
 * (`?locale=de`, as REST asks for it): a translation's slug may be its item's too.
 */
export function resourceUri(collection: CollectionName, slug: string, locale?: string): string {
  return `content://${collection}/${slug}${locale === undefined ? '' : `?locale=${locale}`}`
}

/** The resource of a record: its locale in the URI when it is not the default's (a translation). */
export function recordUri(
  snapshot: Snapshot,
  collection: CollectionName,
  record: Pick<ContentRecord, 'slug' | 'locale'>,
): string {
  return resourceUri(collection, record.slug, translationLocale(snapshot, record))
}

/** A translation's locale; undefined for a record of the default locale (or of a single-language site). */
export function translationLocale(snapshot: Snapshot, record: Pick<ContentRecord, 'locale'>): string | undefined {
  const locales = snapshot.manifest.locales
  return locales && record.locale !== undefined && record.locale !== locales.default ? record.locale : undefined
}

/** Shared with REST search (gateway/content/items.ts). */
export { readItem }

/**
 * The full record an item reference names: in a locale, the item as REST answers it with
 * `?locale=` (found by any of its slugs, the default's where the locale falls back); else the
 * default locale's item of that slug.
 */
export async function readItemIn(
  snapshot: Snapshot,
  ref: { collection: CollectionName; slug: string; locale?: string },
): Promise<FullRecord | undefined> {
  if (ref.locale === undefined) return readItem(snapshot, ref.collection, ref.slug)
  const found = findItem(snapshot, ref.collection, ref.slug, { locale: ref.locale, negotiated: false })
  return found && readRecord(snapshot, ref.collection, found.record)
}

/** Everything of a record but its body (the metadata an agent reads beside the markdown). */
export function metadataOf(record: FullRecord): ContentRecord & { reading_time_minutes: number; word_count: number } {
  const { body: _body, ...metadata } = record
  return metadata
}

export function slugsOf(snapshot: Snapshot, collection: CollectionName): string[] {
  return snapshot.summaries(collection).map((r) => r.slug)
}

/** Values starting with `prefix` (case-insensitive), at most `max` of them: MCP completion's contract. */
export function completeFrom(values: Iterable<string>, prefix: string, max = 100): string[] {
  const p = prefix.toLowerCase()
  const out: string[] = []
  for (const v of values) {
    if (v.toLowerCase().startsWith(p) && !out.includes(v)) out.push(v)
    if (out.length >= max) break
  }
  return out
}

export function allTags(snapshot: Snapshot, collections: readonly CollectionName[] = snapshot.model.names): string[] {
  const tags = new Set<string>()
  for (const c of collections) for (const r of snapshot.summaries(c)) for (const t of r.tags) tags.add(t)
  return [...tags].sort()
}

/** A hint an agent can act on when a slug does not exist. */
export function unknownSlugMessage(collection: string, slug: string): string {
  return (
    `No published ${collection} item has the slug "${slug.slice(0, 120)}". ` +
    `Find valid slugs with the list_content tool (collection "${collection}") or the search_content tool, ` +
    `or list the resources (content://${collection}/{slug}).`
  )
}
