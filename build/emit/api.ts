/**
 * API files: every limit 1..100 of page 1 of each collection, and each item.
 * Per collection, and incremental: an item is rendered again only when its
 * record changed (records are new objects only when their file was
 * recompiled), and a list of `limit` items only when one of its first `limit`
 * records or the total did, so an edit to the 500th post renders no list. It
 * reports only the files that changed (the edited item, the lists it is in).
 */
import { itemFile, listFile, localeItemFile, localeListFile, PRERENDERED_LIMITS } from '../../contract/paths.ts'
import { buildFile } from '../../contract/etag.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import type { ContentRecord, FullRecord } from '../../contract/records.ts'
import type { CollectionModel } from '../../contract/model/model.ts'
import { renderItem, renderListFrom } from '../../contract/render.ts'
import { RecordDiff } from './record-diff.ts'
import type { EmittedFiles, Emitter } from './types.ts'

export function createApiEmitter(): Emitter {
  // The files are kept, not their text: they are the same objects the compiler's output holds.
  const items = new WeakMap<FullRecord, BuildFile>()
  const lists = new Map<string, { records: readonly FullRecord[]; files: BuildFile[]; diff: RecordDiff }>()
  /** Per collection and locale (the default's is tracked by its RecordDiff), the item files written last time. */
  const localeItems = new Map<string, Map<string, BuildFile>>()
  const itemBytes = (record: FullRecord) => {
    let file = items.get(record)
    if (file === undefined) items.set(record, (file = buildFile(renderItem(record))))
    return file
  }
  /** Page 1 of every limit of one list; only the files that changed go into `files`. */
  const emitLists = (
    key: string,
    records: readonly FullRecord[],
    summaries: readonly ContentRecord[],
    href: CollectionModel,
    path: (limit: number) => string,
    locale: string | undefined,
    files: EmittedFiles,
  ) => {
    const previous = lists.get(key)
    const unchanged = sameUpTo(previous?.records, records)
    // Every record the same: every list is, including those longer than the collection.
    const reusable = (limit: number) => previous !== undefined && (limit <= unchanged || unchanged === records.length)
    const queries = PRERENDERED_LIMITS.map((limit) => ({ limit, page: 1, tag: undefined, ...(locale && { locale }) }))
    const listFiles = queries.map((query, i) =>
      reusable(query.limit) ? previous!.files[i]! : buildFile(renderListFrom(href, summaries, query, summaryJson)),
    )
    for (const [i, limit] of PRERENDERED_LIMITS.entries())
      if (listFiles[i] !== previous?.files[i]) files[path(limit)] = listFiles[i]!
    const diff = previous?.diff ?? new RecordDiff()
    lists.set(key, { records, files: listFiles, diff })
    return diff
  }
  return {
    name: 'api',
    input: 'collection',
    emit(content, collection) {
      const files: EmittedFiles = {}
      const records = content.collections[collection]!
      const model = content.site.collections[collection]!
      const diff = emitLists(
        collection,
        records,
        content.summaries[collection]!,
        model,
        (limit) => listFile(collection, limit),
        undefined,
        files,
      )
      const { added, gone } = diff.update(records)
      for (const record of added) files[itemFile(collection, record.slug)] = itemBytes(record)
      const removed = gone.map((r) => itemFile(collection, r.slug)).filter((path) => !(path in files))
      // A multilingual site's other locales: their lists, and their translations' items (a record of
      // the default locale standing in for a missing translation is answered by its own file).
      for (const [locale, view] of Object.entries(content.locales ?? {})) {
        const key = `${collection}@${locale}`
        const own = view.collections[collection]!
        emitLists(
          key,
          own,
          view.summaries[collection]!,
          model,
          (limit) => localeListFile(collection, locale, limit),
          locale,
          files,
        )
        const before = localeItems.get(key) ?? new Map<string, BuildFile>()
        const after = new Map<string, BuildFile>()
        for (const record of own) {
          if (record.locale !== locale) continue
          const path = localeItemFile(collection, locale, record.slug)
          const file = itemBytes(record)
          after.set(path, file)
          if (before.get(path) !== file) files[path] = file
        }
        for (const path of before.keys()) if (!after.has(path)) removed.push(path)
        localeItems.set(key, after)
      }
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
