/**
 * Put compiled files together into the published content: per collection
 * (slugs are unique per collection, so an edit reassembles one collection),
 * then all of the model's combined. Drafts, and items scheduled or expired as of the
 * build's clock (`now`, pipeline/schedule.ts), are validated but left out;
 * lists are newest first.
 */
import type { CollectionModel, CollectionName } from '../../contract/model/model.ts'
import type { ContentRecord, FullRecord } from '../../contract/records.ts'
import type { ContentError } from '../core/errors.ts'
import type { BuiltContent } from '../emit/types.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { normaliseDate, sortedIndex, sortRecords, toSummary } from '../pipeline/derive.ts'
import { checkDuplicateSlugs } from '../pipeline/validate.ts'
import type { SiteConfig } from '../core/site.ts'
import { isLive, type Timeline } from '../pipeline/schedule.ts'

/** One collection's published records, or the errors of its files. */
export type CollectionPart =
  | { ok: true; records: FullRecord[]; summaries: ContentRecord[]; contentUpdatedAt: string }
  | { ok: false; errors: ContentError[] }

/** contentUpdatedAt of content with no items. */
const EPOCH = '1970-01-01T00:00:00Z'

/** Whether a file's item is published at `now` (seconds): not a draft, and released but not expired. */
export function isPublished(file: CompiledFile, now: number): boolean {
  return !file.draft && isLive(file.window, now)
}

export function assembleCollection(
  collection: CollectionModel,
  files: readonly CompiledFile[],
  now: number,
): CollectionPart {
  const errors = files.flatMap((c) => c.errors)
  // In path order, so the file named as "already used by" is the same however the files were read.
  const slugs = files
    .flatMap((c) => (c.slugAt ? [{ path: c.source.path, slug: c.slug, slugAt: c.slugAt }] : []))
    .sort((a, b) => (a.path < b.path ? -1 : 1))
  checkDuplicateSlugs(slugs, errors)
  if (errors.length) return { ok: false, errors }
  const records = sortRecords(
    collection,
    files.filter((c) => isPublished(c, now)).map((c) => c.record!),
  )
  return { ok: true, records, summaries: records.map(toSummary), contentUpdatedAt: latestUpdate(records) }
}

/**
 * The part after one published file was saved again as a published file with
 * the same slug and no errors (an author's usual edit): the previous records
 * with the new one in its place, the same as assembling every file again, in
 * time proportional to the edit. Undefined for any other change (the caller
 * assembles the collection in full).
 */
export function reassembleOne(
  collection: CollectionModel,
  previous: CollectionPart | undefined,
  before: CompiledFile,
  after: CompiledFile,
  now: number,
): CollectionPart | undefined {
  if (!previous?.ok || !isPublished(before, now) || !isPublished(after, now)) return undefined
  if (after.errors.length || before.slug !== after.slug) return undefined
  if (!before.record || !after.record) return undefined
  const from = previous.records.indexOf(before.record)
  if (from < 0) return undefined
  const records = [...previous.records]
  const summaries = [...previous.summaries]
  records.splice(from, 1)
  summaries.splice(from, 1)
  const at = sortedIndex(collection, records, after.record)
  if (at === undefined) return undefined
  records.splice(at, 0, after.record)
  summaries.splice(at, 0, toSummary(after.record))
  // The latest update stays the previous one unless the replaced record held it (then look again).
  const [gone, added] = [normalisedUpdate(before.record), normalisedUpdate(after.record)]
  const contentUpdatedAt =
    gone < previous.contentUpdatedAt
      ? added > previous.contentUpdatedAt
        ? added
        : previous.contentUpdatedAt
      : latestUpdate(records)
  return { ok: true, records, summaries, contentUpdatedAt }
}

/** The latest normalised updated_at of the records. */
function latestUpdate(records: readonly FullRecord[]): string {
  let contentUpdatedAt = EPOCH
  for (const r of records) {
    const date = normalisedUpdate(r)
    if (date > contentUpdatedAt) contentUpdatedAt = date
  }
  return contentUpdatedAt
}

/** Each record's updated_at normalised once: an edit goes through the collection's 5,000 again. */
const normalised = new WeakMap<FullRecord, string>()

function normalisedUpdate(record: FullRecord): string {
  let date = normalised.get(record)
  if (date === undefined) normalised.set(record, (date = normaliseDate(record.updated_at)))
  return date
}

/** The published content of the model's assembled collections (each must be ok), as of the build's clock. */
export function combine(
  site: SiteConfig,
  parts: ReadonlyMap<CollectionName, CollectionPart>,
  schedule: { asOf: number; timeline: Timeline },
): BuiltContent {
  const collections = {} as BuiltContent['collections']
  const summaries = {} as BuiltContent['summaries']
  let contentUpdatedAt = EPOCH
  for (const name of site.model.names) {
    const part = parts.get(name)
    if (!part?.ok) throw new Error(`collection ${name} is not assembled`)
    collections[name] = part.records
    summaries[name] = part.summaries
    if (part.contentUpdatedAt > contentUpdatedAt) contentUpdatedAt = part.contentUpdatedAt
  }
  return { site, collections, summaries, contentUpdatedAt, ...schedule }
}
