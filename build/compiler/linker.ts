/**
 * The link stage across edits: a full link (link.ts) when anything but one
 * item changed, and for an author's usual edit (one published file saved
 * again, same slug, no errors) only what the edit reaches: that item's own
 * references and links, and the items whose `related` point to it. At 30,000
 * items the full link walked every file and every record on each save.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import type { FullRecord } from '../../contract/records.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { addToSet } from '../core/set-map.ts'
import { link, relink, type LinkResult, type Published, type ReplacedRecord } from './link.ts'
import type { PublicationWindow } from '../pipeline/schedule.ts'

export class Linker {
  /** The last result, the base records it linked, and the items edited since its full link. */
  private last:
    | { input: Record<CollectionName, FullRecord[]>; result: LinkResult; edited: Map<string, FullRecord> }
    | undefined

  /**
   * Link the base `records` of `files`. `edit`: the one file replaced since
   * the last call (before, after), when that is the only change.
   */
  link(
    records: Record<CollectionName, FullRecord[]>,
    files: ReadonlyMap<string, CompiledFile>,
    now: number,
    edit?: [CompiledFile, CompiledFile] | 'none',
  ): LinkResult {
    // Only a translation changed: the default locale's records, and so their links, are the last ones.
    const last = this.last
    if (edit === 'none' && last && sameLists(records, last.input)) return { ...last.result, replaced: [] }
    const fast = edit && edit !== 'none' && this.linkOne(records, edit[0], edit[1])
    if (fast) return fast
    const result = link(records, files.values(), now)
    this.last = result.errors.length ? undefined : { input: records, result, edited: new Map() }
    return result
  }

  /** The fast path; undefined when it does not apply (the caller links in full). */
  private linkOne(
    records: Record<CollectionName, FullRecord[]>,
    before: CompiledFile,
    after: CompiledFile,
  ): LinkResult | undefined {
    const last = this.last
    const collection = after.collection
    if (!last || !before.record || !after.record) return undefined
    if (!sameLists(records, last.input, collection)) return undefined
    const key = `${collection}/${after.slug}`
    const edited = new Map(last.edited).set(key, after.record)
    const published: Published = {
      get: (target) => {
        const record = edited.get(target)
        return record
          ? { collection: target.split('/')[0] as CollectionName, record }
          : last.result.published.get(target)
      },
    }
    // The same slugs are published as before, so only the edited file's own targets can be broken now.
    for (const target of [...after.references, ...after.links].map((r) => r.target))
      if (!published.get(target)) return undefined
    // Scheduled publishing: an edit that moves the item's own times, or points to an item that expires, is linked in full.
    if (!sameWindow(before.window, after.window)) return undefined
    for (const target of [...after.references, ...after.links].map((r) => r.target))
      if (published.get(target)!.record.expires_at) return undefined
    const out = { ...last.result.records }
    const base = records[collection]!
    // The base list is the last one with the record moved (assemble.ts reassembleOne): do the same to the linked one.
    const own = [...out[collection]!]
    const from = last.input[collection]!.indexOf(before.record)
    const to = base.indexOf(after.record)
    if (from < 0 || to < 0) return undefined
    const linked = after.references.length ? relink(after.record, after, published) : after.record
    const replaced: ReplacedRecord[] = [{ collection, before: own[from]!, after: linked }]
    own.splice(from, 1)
    own.splice(to, 0, linked)
    out[collection] = own
    // Items whose related entries name the edited one: linked again (the same object when nothing they show changed).
    const referrers = last.result.referrers
    for (const file of referrers.get(key) ?? []) {
      if (!file.record || file === before) continue
      const list = file.collection === collection ? own : [...out[file.collection]!]
      const at = (file.collection === collection ? base : records[file.collection]!).indexOf(file.record)
      const next = relink(file.record, file, published)
      if (at < 0 || list[at] === next) continue
      replaced.push({ collection: file.collection, before: list[at]!, after: next })
      list[at] = next
      out[file.collection] = list
    }
    // The edited file's own references, in the index for the next edit.
    for (const ref of before.references) referrers.get(ref.target)?.delete(before)
    for (const ref of after.references) addToSet(referrers, ref.target, after)
    this.last = { input: records, result: { records: out, errors: [], published, referrers }, edited }
    return { ...this.last.result, replaced }
  }
}

/** Whether `a` and `b` hold the same collections with the same lists (but `except`'s). */
function sameLists(
  a: Record<CollectionName, FullRecord[]>,
  b: Record<CollectionName, FullRecord[]>,
  except?: CollectionName,
): boolean {
  const names = Object.keys(a)
  return names.length === Object.keys(b).length && names.every((c) => c === except || a[c] === b[c])
}

function sameWindow(a: PublicationWindow | undefined, b: PublicationWindow | undefined): boolean {
  return a?.from === b?.from && a?.until === b?.until
}
