/**
 * Ids of the connector pair (`search` and `fetch`): `collection/slug`, e.g.
 * `case-studies/meridian-mutual-ledger-reconciliation`. Readable, stable
 * across builds and the same path as REST (`/api/{collection}/{slug}`); a
 * multilingual site's translations add their locale as REST does
 * (`blog-posts/tidewater-cloud-eu-region-frankfurt?locale=de`). `fetch` also takes the
 * item's `content://` URI and the record's `id` from the REST API (of any
 * locale), so an id from any of our surfaces works.
 */
import { isCollectionName, type CollectionName } from '../../contract/model/model.ts'
import type { ContentRecord } from '../../contract/records.ts'
import { isMultilingual, localesOf, summariesIn, toolLocale } from '../content/locales.ts'
import { MemoKey, type Snapshot } from '../snapshot.ts'
import type { Tombstone } from '../../contract/redirects.ts'
import { fateOf } from '../content/redirects.ts'
import { RESOURCE_SCHEME, translationLocale } from './content.ts'

export interface ItemRef {
  collection: CollectionName
  slug: string
  /** A translation's locale (never the default's). */
  locale?: string
}

const RECORD_ID = /^[0-9a-f]{20}$/
/** Record id → item, per snapshot (built on the first lookup by record id). */
const BY_RECORD_ID = new MemoKey<Map<string, ItemRef>>('items by record id')

export function connectorId(collection: CollectionName, slug: string, locale?: string): string {
  return `${collection}/${slug}${locale === undefined ? '' : `?locale=${locale}`}`
}

/** The connector id of a record: its locale named when it is a translation. */
export function recordConnectorId(
  snapshot: Snapshot,
  collection: CollectionName,
  record: Pick<ContentRecord, 'slug' | 'locale'>,
): string {
  return connectorId(collection, record.slug, translationLocale(snapshot, record))
}

/** The item an id names, or undefined when it names none (whether the item exists is for the caller to check). */
export function parseConnectorId(snapshot: Snapshot, id: string): ItemRef | undefined {
  const value = id.trim()
  if (RECORD_ID.test(value)) return recordIndex(snapshot).get(value)
  const uri = value.startsWith(`${RESOURCE_SCHEME}//`) ? value.slice(RESOURCE_SCHEME.length + 2) : value
  const [path = '', query] = uri.split('?', 2) as [string, string | undefined]
  const [collection, slug, ...rest] = path.split('/')
  if (rest.length > 0 || !collection || !slug || !isCollectionName(snapshot.model, collection)) return undefined
  if (query === undefined) return { collection, slug }
  const params = new URLSearchParams(query)
  const given = params.get('locale')
  if (given === null || [...params.keys()].length !== 1 || !isMultilingual(snapshot)) return undefined
  const chosen = toolLocale(snapshot, given)
  if (!chosen.ok) return undefined
  return { collection, slug, ...(chosen.locale !== undefined && { locale: chosen.locale }) }
}

function recordIndex(snapshot: Snapshot): Map<string, ItemRef> {
  return snapshot.memo(BY_RECORD_ID, () => {
    const index = new Map<string, ItemRef>()
    const { names } = snapshot.model
    for (const collection of names)
      for (const r of snapshot.summaries(collection)) index.set(r.id, { collection, slug: r.slug })
    // A multilingual site's translations, by their own ids.
    const { available, default: first } = localesOf(snapshot)
    for (const locale of isMultilingual(snapshot) ? available : [])
      if (locale !== first)
        for (const collection of names)
          for (const r of summariesIn(snapshot, collection, locale))
            if (r.locale === locale) index.set(r.id, { collection, slug: r.slug, locale })
    return index
  })
}

/**
 * A hint an agent can act on when an id names nothing: what ids look like, with
 * ids this snapshot has (the nearest slugs of the collection the id names, else
 * the newest item, and a translation's on a multilingual site), never an
 * example that would fail again.
 */
export function unknownIdMessage(snapshot: Snapshot, id: string): string {
  const [path = ''] = id.trim().split('?', 1)
  const [collection = '', slug = ''] = path.split('/')
  const examples = isCollectionName(snapshot.model, collection) ? nearestIds(snapshot, collection, slug) : []
  const translated = translatedExample(snapshot)
  const given = examples.length > 0 ? examples : firstIds(snapshot)
  return (
    `No published item has the id "${id.slice(0, 200)}". Ids look like "collection/slug" ` +
    `(collections: ${snapshot.model.names.join(', ')})` +
    (given.length > 0 ? `, e.g. ${given.map((e) => `"${e}"`).join(' or ')}` : '') +
    (translated ? `; a translation's names its locale ("${translated}")` : '') +
    '. Get them from the search tool.'
  )
}

/** What an agent is told of a deleted item's address: when, and the tombstone the change feed keeps of it. */
export function goneMessage(tombstone: Tombstone): string {
  return (
    `The ${tombstone.collection} item "${tombstone.slug}" was deleted at ${tombstone.deleted_at} ` +
    `(the change feed's tombstone, id ${tombstone.id}); it is no longer published. Search for what replaced it.`
  )
}

/**
 * The item an old id of one leads to (content/'s history: its file renamed, its slug changed),
 * or its tombstone; undefined when the id is no old address.
 */
export async function followMoved(
  snapshot: Snapshot,
  ref: ItemRef,
): Promise<{ moved: ItemRef } | { gone: Tombstone } | undefined> {
  const found = await fateOf(snapshot, ref.collection, ref.slug, ref.locale)
  if (!found) return undefined
  if ('gone' in found.fate) return { gone: found.fate.gone }
  return { moved: { ...ref, collection: found.fate.collection ?? ref.collection, slug: found.fate.to } }
}

/** Up to three ids of `collection` whose slugs are closest to `slug` (sharing its longest words first). */
function nearestIds(snapshot: Snapshot, collection: CollectionName, slug: string): string[] {
  const words = new Set(
    slug
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  )
  const scored = snapshot.summaries(collection).map((r) => ({
    slug: r.slug,
    score: r.slug.split('-').reduce((sum, w) => sum + (words.has(w) ? w.length : 0), 0),
  }))
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.slug.localeCompare(b.slug))
    .slice(0, 3)
    .map((s) => connectorId(collection, s.slug))
}

/** The newest item's id in the first collection that has one. */
function firstIds(snapshot: Snapshot): string[] {
  for (const collection of snapshot.model.names) {
    const first = snapshot.summaries(collection)[0]
    if (first) return [connectorId(collection, first.slug)]
  }
  return []
}

/** One translation's id, on a multilingual site that has one. */
function translatedExample(snapshot: Snapshot): string | undefined {
  if (!isMultilingual(snapshot)) return undefined
  const { available, default: first } = localesOf(snapshot)
  for (const locale of available)
    if (locale !== first)
      for (const collection of snapshot.model.names)
        for (const r of summariesIn(snapshot, collection, locale))
          if (r.locale === locale) return connectorId(collection, r.slug, locale)
  return undefined
}
