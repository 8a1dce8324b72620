/**
 * Ids of the connector pair (`search` and `fetch`): `collection/slug`, e.g.
 * `case-studies/meridian-mutual-ledger-reconciliation`. Readable, stable
 * across builds and the same path as REST (`/api/{collection}/{slug}`).
 * `fetch` also takes the item's `content://` URI and the record's `id` from
 * the REST API, so an id from any of our surfaces works.
 */
import { COLLECTION_NAMES, isCollectionName, type CollectionName } from '../../contract/collections.ts'
import { MemoKey, type Snapshot } from '../snapshot.ts'
import { RESOURCE_SCHEME } from './content.ts'

export interface ItemRef {
  collection: CollectionName
  slug: string
}

const RECORD_ID = /^[0-9a-f]{20}$/
/** Record id → item, per snapshot (built on the first lookup by record id). */
const BY_RECORD_ID = new MemoKey<Map<string, ItemRef>>('items by record id')

export function connectorId(collection: CollectionName, slug: string): string {
  return `${collection}/${slug}`
}

/** The item an id names, or undefined when it names none (whether the item exists is for the caller to check). */
export function parseConnectorId(snapshot: Snapshot, id: string): ItemRef | undefined {
  const value = id.trim()
  if (RECORD_ID.test(value)) return recordIndex(snapshot).get(value)
  const path = value.startsWith(`${RESOURCE_SCHEME}//`) ? value.slice(RESOURCE_SCHEME.length + 2) : value
  const [collection, slug, ...rest] = path.split('/')
  if (rest.length > 0 || !collection || !slug || !isCollectionName(collection)) return undefined
  return { collection, slug }
}

function recordIndex(snapshot: Snapshot): Map<string, ItemRef> {
  return snapshot.memo(BY_RECORD_ID, () => {
    const index = new Map<string, ItemRef>()
    for (const collection of COLLECTION_NAMES)
      for (const r of snapshot.summaries(collection)) index.set(r.id, { collection, slug: r.slug })
    return index
  })
}

/** A hint an agent can act on when an id names nothing. */
export function unknownIdMessage(id: string): string {
  return (
    `No published item has the id "${id.slice(0, 200)}". Ids look like "collection/slug" ` +
    `(collections: ${COLLECTION_NAMES.join(', ')}), e.g. "blog-posts/data-contracts-in-ci"; ` +
    'get them from the search tool.'
  )
}
