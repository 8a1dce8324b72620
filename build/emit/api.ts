/**
 * API files: every limit 1..100 of page 1 of each collection, and each item.
 * Per collection, and incremental: an item is rendered again only when its
 * record changed (records are new objects only when their file was
 * recompiled), and a list of `limit` items only when one of its first `limit`
 * records or the total did, so an edit to the 500th post renders no list. It
 * reports only the files that changed (the edited item, the lists it is in).
 */
import type { CollectionName } from '../../contract/collections.ts'
import { itemFile, listFile, PRERENDERED_LIMITS } from '../../contract/paths.ts'
import { buildFile } from '../../contract/etag.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import type { ContentRecord, FullRecord } from '../../contract/records.ts'
import { renderItem, renderListFrom } from '../../contract/render.ts'
import { RecordDiff } from './record-diff.ts'
import type { EmittedFiles, Emitter } from './types.ts'

export function createApiEmitter(): Emitter {
  // The files are kept, not their text: they are the same objects the compiler's output holds.
  const items = new WeakMap<FullRecord, BuildFile>()
  const lists = new Map<CollectionName, { records: readonly FullRecord[]; files: BuildFile[]; diff: RecordDiff }>()
  return {
    name: 'api',
    input: 'collection',
    emit(content, collection) {
      const files: EmittedFiles = {}
      const records = content.collections[collection]
      const summaries = content.summaries[collection]
      const previous = lists.get(collection)
      const unchanged = sameUpTo(previous?.records, records)
      // Every record the same: every list is, including those longer than the collection.
      const reusable = (limit: number) => previous !== undefined && (limit <= unchanged || unchanged === records.length)
      const listFiles = PRERENDERED_LIMITS.map((limit, i) =>
        reusable(limit)
          ? previous!.files[i]!
          : buildFile(renderListFrom(collection, summaries, { limit, page: 1, tag: undefined }, summaryJson)),
      )
      for (const [i, limit] of PRERENDERED_LIMITS.entries())
        if (listFiles[i] !== previous?.files[i]) files[listFile(collection, limit)] = listFiles[i]!
      const diff = previous?.diff ?? new RecordDiff()
      lists.set(collection, { records, files: listFiles, diff })
      const { added, gone } = diff.update(records)
      for (const record of added) {
        let file = items.get(record)
        if (file === undefined) items.set(record, (file = buildFile(renderItem(record))))
        files[itemFile(collection, record.slug)] = file
      }
      const removed = gone.map((r) => itemFile(collection, r.slug)).filter((path) => !(path in files))
      return { files, removed }
    },
  }
}

/** Each summary's JSON, made once: a list of 100 repeats those of the 99 before it. */
const summaryTexts = new WeakMap<ContentRecord, string>()

function summaryJson(summary: ContentRecord): string {
  let text = summaryTexts.get(summary)
  if (text === undefined) summaryTexts.set(summary, (text = JSON.stringify(summary)))
  return text
}

/** How many leading records are the same objects; 0 when the totals differ (every list's meta changes). */
function sameUpTo(before: readonly FullRecord[] | undefined, after: readonly FullRecord[]): number {
  if (!before || before.length !== after.length) return 0
  let i = 0
  while (i < after.length && before[i] === after[i]) i++
  return i
}
