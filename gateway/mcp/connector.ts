/**
 * Ids of the connector pair (`search` and `fetch`): `collection/slug`, e.g.
 * `case-studies/meridian-mutual-ledger-reconciliation`. Readable, stable
 * across builds and the same path as REST (`/api/{collection}/{slug}`); a
 * multilingual site's translations add their locale as REST does
 * (`blog-posts/datenvertraege-in-der-ci?locale=de`). `fetch` also takes the
 * item's `content://` URI and the record's `id` from the REST API (of any
 * locale), so an id from any of our surfaces works.
 */
import { COLLECTION_NAMES, isCollectionName, type CollectionName } from '../../contract/collections.ts'
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
  if (rest.length > 0 || !collection || !slug || !isCollectionName(collection)) return undefined
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
    for (const collection of COLLECTION_NAMES)
      for (const r of snapshot.summaries(collection)) index.set(r.id, { collection, slug: r.slug })
    // A multilingual site's translations, by their own ids.
    const { available, default: first } = localesOf(snapshot)
    for (const locale of isMultilingual(snapshot) ? available : [])
      if (locale !== first)
        for (const collection of COLLECTION_NAMES)
          for (const r of summariesIn(snapshot, collection, locale))
            if (r.locale === locale) index.set(r.id, { collection, slug: r.slug, locale })
    return index
  })
}

/** A hint an agent can act on when an id names nothing. */
export function unknownIdMessage(id: string): string {
  return (
    `No published item has the id "${id.slice(0, 200)}". Ids look like "collection/slug" ` +
    `(collections: ${COLLECTION_NAMES.join(', ')}), e.g. "blog-posts/data-contracts-in-ci", ` +
    'a translation\'s with its locale ("blog-posts/datenvertraege-in-der-ci?locale=de"); get them from the search tool.'
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
