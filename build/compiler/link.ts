/**
 * The link stage: references between items, resolved once every collection
 * is assembled. Each `related` entry, and each link of a body to an item's
 * page on the marketing site, must name a published item (a draft may also
 * name another draft, since both are work in progress), published for as
 * long as the item naming it is (pipeline/schedule.ts: a release or an
 * expiry never breaks a later build); full records carry
 * the resolved related items. A record whose resolved references did not change
 * keeps its object, so nothing downstream renders it again.
 */
import type { CollectionName } from '../../contract/model/model.ts'
import type { FullRecord, RelatedItem } from '../../contract/records.ts'
import { ContentError } from '../core/errors.ts'
import type { CompiledFile, Reference } from '../pipeline/compile.ts'
import { addToSet } from '../core/set-map.ts'
import { closest } from '../../contract/did-you-mean.ts'
import { referenceTiming } from '../pipeline/schedule.ts'

/**
 * Linked records per base record: the last result, the records its references resolved to and the
 * items made of them. An edit elsewhere leaves those records the same objects, so the record is kept
 * without making its items again.
 */
const linked = new WeakMap<FullRecord, { targets: FullRecord[]; key: string; record: FullRecord }>()

type PublishedMap = Map<string, { collection: CollectionName; record: FullRecord }>
/** The published items of a collection's records by `collection/slug`: made again only for a collection that changed. */
const byCollection = new WeakMap<FullRecord[], PublishedMap>()

export interface LinkResult {
  records: Record<CollectionName, FullRecord[]>
  errors: ContentError[]
  /** The published items by `collection/slug`. */
  published: Published
  /** The published files that point to each `collection/slug` (by `related`). */
  referrers: Map<string, Set<CompiledFile>>
  /**
   * After an edit linked by difference (linker.ts), the records it replaced in
   * the last result, the edited item's first (the only one that may have
   * moved); undefined after a full link.
   */
  replaced?: ReplacedRecord[]
}

/** A linked record replaced by an edit: `before` in the last result, `after` in this one. */
export interface ReplacedRecord {
  collection: CollectionName
  before: FullRecord
  after: FullRecord
}

/** Resolve the references of `files` against the published `records` (base records, newest first) as of `now`. */
export function link(
  records: Record<CollectionName, FullRecord[]>,
  files: Iterable<CompiledFile>,
  now: number,
): LinkResult {
  const parts = Object.entries(records).map(([collection, list]) => {
    let part = byCollection.get(list)
    if (!part) {
      part = new Map(list.map((record) => [`${collection}/${record.slug}`, { collection, record }]))
      byCollection.set(list, part)
    }
    return part
  })
  const published = {
    get: (target: string) => {
      for (const part of parts) {
        const found = part.get(target)
        if (found) return found
      }
      return undefined
    },
  }
  const referencing = new Map<FullRecord, CompiledFile>()
  const all = [...files]
  for (const file of all) if (!file.draft && file.record && file.references.length) referencing.set(file.record, file)
  const errors = brokenReferences(all, now)
  const out = {} as Record<CollectionName, FullRecord[]>
  for (const [collection, list] of Object.entries(records)) {
    out[collection] = list.map((record) => {
      const file = referencing.get(record)
      return file ? relink(record, file, published) : record
    })
  }
  const referrers = new Map<string, Set<CompiledFile>>()
  for (const file of referencing.values()) for (const ref of file.references) addToSet(referrers, ref.target, file)
  return { records: out, errors, published, referrers }
}

/** Where a `collection/slug` of a published item is found. */
export interface Published {
  get(target: string): { collection: CollectionName; record: FullRecord } | undefined
}

/**
 * `record` (of `file`, which has references) with its related items
 * resolved: the same object as last time when its targets are the same.
 */
export function relink(record: FullRecord, file: CompiledFile, published: Published): FullRecord {
  const resolved = file.references.map((ref) => published.get(ref.target))
  const targets = resolved.flatMap((target) => (target ? [target.record] : []))
  const previous = linked.get(record)
  if (previous && sameObjects(previous.targets, targets)) return previous.record
  const items = resolved.map(
    (target): RelatedItem | undefined =>
      target && {
        collection: target.collection,
        slug: target.record.slug,
        title: target.record.title,
        url: target.record.url as string,
      },
  )
  const key = JSON.stringify(items)
  // A target saved again with the same title and url: the same items, the same record.
  const next = previous?.key === key ? previous.record : withReferences(record, file.references, items)
  linked.set(record, { targets, key, record: next })
  return next
}

/**
 * `record` with its references resolved (`items`, one per reference, undefined where it names
 * nothing): `related` the items of the `related` entries, each reference field its item (or, a
 * list of references, its items).
 */
export function withReferences(
  record: FullRecord,
  references: readonly Reference[],
  items: readonly (RelatedItem | undefined)[],
): FullRecord {
  const next: FullRecord = { ...record, related: [] }
  for (const ref of references) if (ref.field) next[ref.field] = ref.list ? [] : null
  references.forEach((ref, i) => {
    const item = items[i]
    if (!item) return
    if (!ref.field) next.related.push(item)
    else if (ref.list) (next[ref.field] as RelatedItem[]).push(item)
    else next[ref.field] = item
  })
  return next
}

/**
 * The broken references of `files` while some of them have errors of their own
 * (so nothing is linked): each file counts as the item it would publish, and
 * `check` reports these with every other problem, in one run.
 */
export function referenceErrors(files: Iterable<CompiledFile>, now: number): ContentError[] {
  return brokenReferences([...files], now)
}

/**
 * Each `related` entry and body link of `files` that names no item that is
 * published whenever the file's own item is, from `now` on (a draft's may name a draft).
 */
function brokenReferences(files: readonly CompiledFile[], now: number): ContentError[] {
  const drafts = new Set<string>()
  const items = new Map<string, CompiledFile>()
  for (const file of files) {
    const key = `${file.collection}/${file.slug}`
    if (file.draft) drafts.add(key)
    else if (!items.has(key)) items.set(key, file)
  }
  const errors: ContentError[] = []
  const broken = (file: CompiledFile, target: string): string | undefined => {
    const item = items.get(target)
    if (item) return file.draft ? undefined : referenceTiming(file.window, item.window, now)
    if (file.draft && drafts.has(target)) return undefined
    return drafts.has(target)
      ? 'is a draft: a published item may only point to published items'
      : `is not an item${suggestion(target, [...items.keys()])}`
  }
  for (const file of files)
    errors.push(
      ...fileLinkErrors(
        file,
        (target) => broken(file, target),
        (target) => broken(file, target),
      ),
    )
  return errors
}

/**
 * A file's errors for its `related` entries and body links, each target's
 * reason (undefined when fine) given by the caller's rule: the default
 * locale's (`brokenReferences`) or a translation's (translation-links.ts).
 */
export function fileLinkErrors(
  file: CompiledFile,
  relatedReason: (target: string) => string | undefined,
  linkReason: (target: string) => string | undefined,
): ContentError[] {
  const errors: ContentError[] = []
  for (const ref of file.references) {
    const reason = relatedReason(ref.target)
    if (!reason) continue
    // A reference field names a slug of its collection; `related`, collection/slug.
    const [field, named] = ref.field
      ? [ref.list ? `${ref.field}[${ref.index}]` : ref.field, ref.target.slice(ref.target.indexOf('/') + 1)]
      : [`related[${ref.index}]`, ref.target]
    errors.push(new ContentError('REFERENCE', file.source.path, ref.line, ref.column, field, `"${named}" ${reason}`))
  }
  for (const link of file.links) {
    const reason = linkReason(link.target)
    if (reason)
      errors.push(
        new ContentError(
          'BROKEN_LINK',
          file.source.path,
          link.line,
          link.column,
          'body',
          `link ${link.href} points to "${link.target}", which ${reason}`,
        ),
      )
  }
  return errors
}

function sameObjects<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/** ` (did you mean blog-posts/x?)` for a near miss within the same collection. */
function suggestion(target: string, known: string[]): string {
  const collection = `${target.split('/')[0]}/`
  const best = closest(
    target,
    known.filter((k) => k.startsWith(collection)),
    3,
  )
  return best ? ` (did you mean ${best}?)` : ''
}
