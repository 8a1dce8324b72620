/**
 * Full records of published items, read from their item files in the
 * snapshot: what REST search, MCP tools and resources read an item's body and
 * metadata from. Parsed per use, not kept: the list form of every item is in
 * the manifest, and the files themselves are cached by bytes (files/byte-lru.ts).
 */
import type { CollectionName } from '../../contract/model/model.ts'
import { itemFile, itemFileIn } from '../../contract/paths.ts'
import { SLUG_PATTERN } from '../../contract/patterns.ts'
import type { ContentRecord, FullRecord } from '../../contract/records.ts'
import type { Snapshot } from '../artifacts.ts'
import { type FieldPaths, jsonFields } from './json-fields.ts'

const SLUG_RE = new RegExp(SLUG_PATTERN)

/** The full record of a published item, from its item file; undefined when there is none. Rejects when dist/ lost the file. */
export async function readItem(
  snapshot: Snapshot,
  collection: CollectionName,
  slug: string,
): Promise<FullRecord | undefined> {
  if (!SLUG_RE.test(slug)) return undefined
  const file = await snapshot.file(itemFile(collection, slug))
  return file ? (JSON.parse(file.body.toString('utf8')) as FullRecord) : undefined
}

/** The full record of an item of any locale, from its file (a translation's under its locale's folder). */
export async function readRecord(
  snapshot: Snapshot,
  collection: CollectionName,
  record: Pick<ContentRecord, 'slug' | 'locale'>,
): Promise<FullRecord | undefined> {
  if (!SLUG_RE.test(record.slug)) return undefined
  const file = await snapshot.file(itemFileIn(collection, record, snapshot.manifest.locales?.default ?? ''))
  return file ? (JSON.parse(file.body.toString('utf8')) as FullRecord) : undefined
}

/** Some fields of an item's full record (any locale), read from its file without parsing the rest (json-fields.ts). */
export async function readRecordFields(
  snapshot: Snapshot,
  collection: CollectionName,
  record: Pick<ContentRecord, 'slug' | 'locale'>,
  paths: FieldPaths,
): Promise<Map<string, unknown> | undefined> {
  if (!SLUG_RE.test(record.slug)) return undefined
  const file = await snapshot.file(itemFileIn(collection, record, snapshot.manifest.locales?.default ?? ''))
  return file ? jsonFields(file.body, paths) : undefined
}
