/**
 * Full records of published items, read from their item files in the
 * snapshot (parsed once per snapshot): what REST search, MCP tools and
 * resources read an item's body and metadata from.
 */
import type { CollectionName } from '../../build/contract/collections.ts'
import { itemFile } from '../../build/contract/paths.ts'
import { SLUG_PATTERN } from '../../build/contract/patterns.ts'
import type { FullRecord } from '../../build/contract/records.ts'
import type { Snapshot } from '../artifacts.ts'

const SLUG_RE = new RegExp(SLUG_PATTERN)
/** Parsed item files per snapshot; a new build gets a new cache. */
const parsed = new WeakMap<Snapshot, Map<string, FullRecord>>()

/** The full record of a published item, from its item file; undefined when there is none. */
export function readItem(snapshot: Snapshot, collection: CollectionName, slug: string): FullRecord | undefined {
  if (!SLUG_RE.test(slug)) return undefined
  const key = `${collection}/${slug}`
  let cache = parsed.get(snapshot)
  if (!cache) parsed.set(snapshot, (cache = new Map()))
  const hit = cache.get(key)
  if (hit) return hit
  const file = snapshot.files.get(itemFile(collection, slug))
  if (!file) return undefined
  const record = JSON.parse(file.body.toString('utf8')) as FullRecord
  cache.set(key, record)
  return record
}
