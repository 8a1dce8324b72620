/**
 * The watch mode's build output, kept in memory and updated per edit. The
 * fast path re-renders only the changed items and the lists of their
 * collections and swaps a new snapshot in; the full pass re-runs every other
 * emitter (search index, OpenAPI, llms.txt, …, which read all content) and the
 * manifest file, off the edit's critical path. Bodies are hashed only when
 * they change. Both paths use the build's own renderers and emitters, so the
 * result is byte-identical to `npm run build` of the same content.
 */
import { COLLECTION_NAMES, type CollectionName } from '../contract/collections.ts'
import { etagOf } from '../contract/etag.ts'
import { itemFile, listFile, MANIFEST_FILE, PRERENDERED_LIMITS } from '../contract/paths.ts'
import { renderItem, renderList } from '../contract/render.ts'
import { emitApi } from '../emit/api.ts'
import { EMITTERS, INDEX_EMITTERS } from '../emit/index.ts'
import { emitSearchIndex, searchDocuments } from '../emit/search-index.ts'
import { SEARCH_INDEX_FILE } from '../contract/search.ts'
import { createManifest } from '../emit/manifest.ts'
import { type Manifest } from '../contract/manifest.ts'
import type { BuiltContent } from '../emit/types.ts'
import type { FullRecord } from '../contract/records.ts'
import { Snapshot, type StoredFile } from '../../gateway/artifacts.ts'
import { OFF_THREAD_MIN, searchIndexOffThread } from './search-thread.ts'

interface Entry {
  text: string
  stored: StoredFile
}

export class DevArtifacts {
  private entries = new Map<string, Entry>()
  /** Which record each item file was rendered from: an unchanged record is not rendered again. */
  private rendered = new Map<string, FullRecord>()
  private apiFiles = new Map<CollectionName, Set<string>>()
  /** The records the lists were last rendered from, per collection. */
  private listed = new Map<CollectionName, readonly FullRecord[]>()
  private inputHash = ''

  /** Re-render the API files of `changed` collections and return the snapshot to serve. */
  update(content: BuiltContent, changed: Iterable<CollectionName>): Snapshot {
    for (const collection of changed) this.emitCollection(content, collection)
    return this.snapshot(content)
  }

  /**
   * Run every other emitter and rewrite the manifest file; returns the complete
   * snapshot, or undefined when `interrupted()` said a newer edit is waiting.
   * Yields to the event loop between emitters so requests and edits go on;
   * the search index, seconds of CPU for large content, is built on a worker.
   */
  async complete(content: BuiltContent, inputHash: string, interrupted: () => boolean = () => false): Promise<Snapshot | undefined> {
    this.inputHash = inputHash
    const api = new Set(COLLECTION_NAMES.flatMap((c) => [...(this.apiFiles.get(c) ?? [])]))
    const files: Record<string, string> = {}
    for (const path of api) files[path] = this.entries.get(path)!.text
    const written = new Set(api)
    for (const emit of [...EMITTERS, ...INDEX_EMITTERS]) {
      if (emit === emitApi) continue
      await new Promise((resolve) => setImmediate(resolve))
      if (interrupted()) return undefined
      const out = emit === emitSearchIndex ? await searchIndex(content, interrupted) : emit(content, files)
      if (!out) return undefined
      for (const [path, body] of Object.entries(out)) {
        files[path] = body
        written.add(path)
        this.set(path, body)
      }
    }
    // Files an emitter no longer writes (a removed document) go.
    for (const path of [...this.entries.keys()]) if (!written.has(path) && path !== MANIFEST_FILE) this.entries.delete(path)
    const manifest = this.manifest(content)
    this.set(MANIFEST_FILE, JSON.stringify(manifest))
    return this.toSnapshot(manifest)
  }

  /** Every file of the build, for writing dist/. */
  files(): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [path, entry] of this.entries) out[path] = entry.text
    return out
  }

  private emitCollection(content: BuiltContent, collection: CollectionName): void {
    const paths = new Set<string>()
    const summaries = content.summaries[collection]
    const records = content.collections[collection]
    // A list of `limit` items only changes if one of its first `limit` records or the total
    // did: an edit to the 500th post re-renders no list at all.
    const unchanged = sameUpTo(this.listed.get(collection), records)
    this.listed.set(collection, records)
    for (const limit of PRERENDERED_LIMITS) {
      const path = listFile(collection, limit)
      if (limit > unchanged || !this.entries.has(path)) this.set(path, renderList(collection, summaries, { limit, page: 1, tag: undefined }))
      paths.add(path)
    }
    for (const record of content.collections[collection]) {
      const path = itemFile(collection, record.slug)
      if (this.rendered.get(path) !== record) {
        this.set(path, renderItem(record))
        this.rendered.set(path, record)
      }
      paths.add(path)
    }
    for (const path of this.apiFiles.get(collection) ?? []) {
      if (!paths.has(path)) {
        this.entries.delete(path)
        this.rendered.delete(path)
      }
    }
    this.apiFiles.set(collection, paths)
  }

  private set(path: string, text: string): void {
    if (this.entries.get(path)?.text === text) return
    const body = Buffer.from(text)
    this.entries.set(path, { text, stored: { body, etag: etagOf(body) } })
  }

  private snapshot(content: BuiltContent): Snapshot {
    return this.toSnapshot(this.manifest(content))
  }

  private manifest(content: BuiltContent): Manifest {
    const texts: Record<string, string> = {}
    const etags: Record<string, string> = {}
    for (const [path, entry] of this.entries) {
      if (path === MANIFEST_FILE) continue
      texts[path] = entry.text
      etags[path] = entry.stored.etag
    }
    return createManifest(content, texts, this.inputHash, etags)
  }

  private toSnapshot(manifest: Manifest): Snapshot {
    const stored = new Map<string, StoredFile>()
    for (const [path, entry] of this.entries) stored.set(`/${path}`, entry.stored)
    return new Snapshot(manifest, stored)
  }
}

/** The search index file, off the main thread for large content; undefined when `interrupted()` while it was built. */
async function searchIndex(content: BuiltContent, interrupted: () => boolean): Promise<Record<string, string> | undefined> {
  const documents = searchDocuments(content)
  if (documents.length < OFF_THREAD_MIN) return emitSearchIndex(content, {})
  const task = searchIndexOffThread(documents)
  let text: string | undefined
  let failed = false
  task.result.then((t) => (text = t), () => (failed = true))
  // Poll, so an edit arriving meanwhile goes first instead of waiting seconds for a stale index.
  while (text === undefined && !failed) {
    if (interrupted()) {
      task.cancel()
      return undefined
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return text === undefined ? emitSearchIndex(content, {}) : { [SEARCH_INDEX_FILE]: text }
}

/** How many leading records are the same objects; 0 when the totals differ (every list's meta changes). */
function sameUpTo(before: readonly FullRecord[] | undefined, after: readonly FullRecord[]): number {
  if (!before || before.length !== after.length) return 0
  let i = 0
  while (i < after.length && before[i] === after[i]) i++
  return i
}
