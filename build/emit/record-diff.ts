/**
 * Which records of a collection are new since the last call: records are new
 * objects only when their file was compiled again (or an item they point to
 * changed), so an edit is found by identity, in one pass of Set lookups, and
 * the records it replaced by their slug. Per-collection emitters use it to
 * make and report only the files of those records.
 */
import type { FullRecord } from '../../contract/records.ts'

export interface RecordChanges {
  /** Records not seen in the last call (all of them on the first). */
  added: FullRecord[]
  /** Records of the last call that are gone, by slug: replaced (same slug, in `added`) or removed. */
  gone: FullRecord[]
}

export class RecordDiff {
  private readonly seen = new Set<FullRecord>()
  private readonly bySlug = new Map<string, FullRecord>()

  update(records: readonly FullRecord[]): RecordChanges {
    const added: FullRecord[] = []
    const gone: FullRecord[] = []
    for (const record of records) {
      if (this.seen.has(record)) continue
      added.push(record)
      const replaced = this.bySlug.get(record.slug)
      if (replaced) {
        this.seen.delete(replaced)
        gone.push(replaced)
      }
      this.bySlug.set(record.slug, record)
      this.seen.add(record)
    }
    // More seen than there are: some were removed (a file deleted, made a draft, or renamed).
    if (this.seen.size > records.length) {
      const now = new Set(records)
      for (const record of this.seen) {
        if (now.has(record)) continue
        this.seen.delete(record)
        if (this.bySlug.get(record.slug) === record) this.bySlug.delete(record.slug)
        gone.push(record)
      }
    }
    return { added, gone }
  }
}
