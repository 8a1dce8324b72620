/**
 * The compiler's view of content/ on disk: which files exist, what each held
 * when it was last read, and which ones changed since. File events (the watch
 * mode's) are only hints: a file is re-read and compared by content hash, so
 * a repeated or spurious event costs one read, and `stale()` finds what the
 * watcher missed by comparing each file's stat with the one taken when it
 * was last read.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync, type BigIntStats, type Dirent } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { setImmediate } from 'node:timers/promises'
import type { CollectionName } from '../../contract/model/model.ts'
import { SLUG_PATTERN } from '../../contract/patterns.ts'

/** The site settings' file (site.ts reads it); here so that listing content/ loads no YAML parser. */
export const SITE_PATH = 'content/site.yaml'

export interface SourceFile {
  collection: CollectionName
  /** Project-relative path with forward slashes, as printed in errors. */
  path: string
  /**
   * The item's key, shared by its translations and its default slug: the file name
   * without `.md` and the locale (`my-post.de.md` → `my-post`), or the folder of an
   * `index.md` (`my-post/index.de.md` → `my-post`).
   */
  basename: string
  /** The locale its name claims (`de` of `my-post.de.md`, as written); undefined for the default locale's file. */
  locale?: string
  raw: string
  /** sha256 of the raw bytes: the cache key and the manifest's source hash. */
  hash: string
}

/** Read one content file as the build sees it. */
export async function readSource(root: string, collection: CollectionName, name: string): Promise<SourceFile> {
  return sourceFile(collection, name, await readFile(join(root, 'content', collection, name), 'utf8'))
}

/**
 * `readSource`, synchronously: for reading every file at once (a build),
 * where each read through the thread pool costs the main thread four
 * round trips (open, stat, read, close) and 10,000 of them most of a second.
 */
export function readSourceSync(root: string, collection: CollectionName, name: string): SourceFile {
  return sourceFile(collection, name, readFileSync(join(root, 'content', collection, name), 'utf8'))
}

function sourceFile(collection: CollectionName, name: string, raw: string): SourceFile {
  const { key, locale } = keyOf(name)
  return {
    collection,
    path: `content/${collection}/${name}`,
    basename: key,
    ...(locale !== undefined && { locale }),
    raw,
    hash: createHash('sha256').update(raw).digest('hex'),
  }
}

/** `name.md`, `name.<locale>.md`, and the same as `index[.<locale>].md` in a folder `name/`. */
const ITEM_FILE = /^(?:([^/]+)\/index|([^/.]+))(?:\.([^/.]+))?\.md$/

/**
 * The item key and claimed locale of a file name relative to its collection.
 *
 * @example keyOf('my-post.de.md') // { key: 'my-post', locale: 'de' }
 * @example keyOf('my-post/index.md') // { key: 'my-post', locale: undefined }
 */
export function keyOf(name: string): { key: string; locale: string | undefined } {
  const m = ITEM_FILE.exec(name)
  if (!m) return { key: name.replace(/\.md$/, ''), locale: undefined }
  return { key: (m[1] ?? m[2])!, locale: m[3] }
}

/** A content path (`content/<collection>/<name>.md`), the site settings, or an image file under content/. */
export type ContentPath =
  | { kind: 'item'; collection: CollectionName; name: string; path: string }
  | { kind: 'site' }
  | { kind: 'asset'; path: string }

const SLUG = new RegExp(SLUG_PATTERN)

/**
 * Whether a folder of content/ may hold a collection's items: named like a
 * collection (a slug). Which collections there are is site.yaml's to say;
 * listing them needs no YAML, and the compiler leaves the files of a folder
 * the model does not name alone.
 */
export function isCollectionFolder(name: string): boolean {
  return SLUG.test(name)
}

/** Files under content/ that items may use as images (the build checks them further). */
const ASSET = /\.(?:jpe?g|png|webp|avif|gif)$/i

const PARALLEL_IO = 64

/** Classify a file path under `root`; undefined for files the build does not read. */
export function classify(root: string, file: string): ContentPath | undefined {
  const rel = relative(root, file).split(sep).join('/')
  if (rel === SITE_PATH) return { kind: 'site' }
  const parts = rel.split('/')
  if (parts[0] === 'content' && ASSET.test(rel) && !parts.includes('..')) return { kind: 'asset', path: rel }
  if (parts[0] !== 'content' || !isCollectionFolder(parts[1]!) || !rel.endsWith('.md')) return undefined
  if (parts.length === 3) return itemPath(parts[1]!, parts[2]!)
  // An item's folder: its index.md and the translations beside it (index.de.md).
  if (parts.length === 4 && /^index(?:\.[^.]+)?\.md$/.test(parts[3]!) && !parts[2]!.startsWith('.'))
    return itemPath(parts[1]!, `${parts[2]}/${parts[3]}`)
  return undefined
}

export function itemPath(collection: CollectionName, name: string): ContentPath & { kind: 'item' } {
  return { kind: 'item', collection, name, path: `content/${collection}/${name}` }
}

/** The key of a content path in maps and queues. */
export function pathKey(path: ContentPath): string {
  return path.kind === 'site' ? SITE_PATH : path.path
}

/**
 * Every Markdown file of every collection folder (isCollectionFolder),
 * sorted by folder then name: the order a build reads them in. Read synchronously: it runs once when a
 * build or the no-change check starts, with nothing to overlap, and a folder
 * per item makes it thousands of listings, each a thread-pool round trip
 * when asynchronous.
 */
export function listContent(root: string): ItemPath[] {
  const steps = listingSteps(root)
  let step = steps.next()
  while (!step.done) step = steps.next(step.value === PAUSE ? [] : listing(step.value))
  return step.value
}

/**
 * `listContent` for a background scan beside the watch mode's edits: the
 * collections' folders read through the thread pool and the entries taken a
 * share at a time, with events let in between, so an edit never waits for
 * the listing (all at once, a large site's listing held the thread long
 * enough to delay an edit);
 * undefined as soon as `interrupted()` says stop.
 */
export async function listContentGently(root: string, interrupted: () => boolean): Promise<ItemPath[] | undefined> {
  const steps = listingSteps(root)
  let step = steps.next()
  while (!step.done) {
    if (interrupted()) return undefined
    if (step.value === PAUSE) {
      await setImmediate()
      step = steps.next([])
    } else {
      // A collection's folder (thousands of entries) through the thread pool; an item's folder (a file or
      // two) here, where its read costs microseconds and a round trip through the pool more.
      step = steps.next(step.value.of === 'collection' ? await listingAsync(step.value) : listing(step.value))
    }
  }
  return step.value
}

type ItemPath = ContentPath & { kind: 'item' }
/** A listing step that reads nothing: a chance for the asynchronous reader to let events in. */
export const PAUSE = Symbol('pause')
/** A folder to read, or a pause. */
type ListingStep = Folder | typeof PAUSE
/** content/ itself, a collection's folder, or an item's (its index.md and translations). */
interface Folder {
  path: string
  of: 'content' | 'collection' | 'item'
}
/** Entries handled between two pauses. */
const ENTRIES_PER_PAUSE = 250

/**
 * The listing of content/ as steps, shared by the readers above: it yields
 * each folder to read (and a pause now and then) and is handed back that
 * folder's entries; it returns the items in build order. Exported for its
 * test (the pauses' cadence).
 */
export function* listingSteps(root: string): Generator<ListingStep, ItemPath[], Dirent[]> {
  const out: ItemPath[] = []
  let handled = 0
  const folders = (yield { path: join(root, 'content'), of: 'content' })
    .filter((entry) => entry.isDirectory() && isCollectionFolder(entry.name))
    .map((entry) => entry.name)
    .sort()
  for (const collection of folders) {
    const folder = join(root, 'content', collection)
    const names: string[] = []
    for (const entry of yield { path: folder, of: 'collection' }) {
      if (entry.isDirectory() && !entry.name.startsWith('.')) {
        for (const inner of yield { path: join(folder, entry.name), of: 'item' })
          if (/^index(?:\.[^.]+)?\.md$/.test(inner.name)) names.push(`${entry.name}/${inner.name}`)
      } else if (entry.name.endsWith('.md')) names.push(entry.name)
      if (++handled % ENTRIES_PER_PAUSE === 0) yield PAUSE
    }
    names.sort()
    for (const [i, name] of names.entries()) {
      out.push(itemPath(collection, name))
      if (i % ENTRIES_PER_PAUSE === ENTRIES_PER_PAUSE - 1) yield PAUSE
    }
  }
  return out
}

/** A folder's entries; none when it is missing (an item's folder: unreadable for any reason). */
function listing(folder: Folder): Dirent[] {
  try {
    return readdirSync(folder.path, { withFileTypes: true })
  } catch (error) {
    return nothingListed(error, folder)
  }
}

async function listingAsync(folder: Folder): Promise<Dirent[]> {
  return readdir(folder.path, { withFileTypes: true }).catch((error: unknown) => nothingListed(error, folder))
}

function nothingListed(error: unknown, folder: Folder): Dirent[] {
  const code = (error as NodeJS.ErrnoException).code
  if (folder.of === 'item' || code === 'ENOENT' || (folder.of === 'collection' && code === 'ENOTDIR')) return []
  throw error
}

/** Run `task` over `items`, PARALLEL_IO at a time (file reads and stats overlap in the thread pool). */
export async function inBatches<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = []
  for (let i = 0; i < items.length; i += PARALLEL_IO)
    out.push(...(await Promise.all(items.slice(i, i + PARALLEL_IO).map(task))))
  return out
}

/**
 * What changes whenever a file's content does (ctime in ns changes on every
 * write); 'missing' when it is gone.
 */
export async function signature(file: string): Promise<string> {
  return signatureOf(await stat(file, { bigint: true }).catch(missing))
}

/**
 * `signature`, synchronously: for a one-shot pass over every file (the
 * no-change check, the compiler's opening), where a stat on this thread costs a few microseconds and
 * one through the thread pool tens of them.
 */
export function signatureSync(file: string): string {
  try {
    return signatureOf(statSync(file, { bigint: true }))
  } catch (error) {
    return signatureOf(missing(error as NodeJS.ErrnoException))
  }
}

function signatureOf(s: BigIntStats | undefined): string {
  return s ? `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : 'missing'
}

function missing(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT' || error.code === 'EISDIR' || error.code === 'ENOTDIR') return undefined
  throw error
}

/** A source's current text, or undefined when the file is gone (synchronously: see readSourceSync). */
export function readIfPresentSync(root: string, path: ContentPath & { kind: 'item' }): SourceFile | undefined {
  try {
    return readSourceSync(root, path.collection, path.name)
  } catch (error) {
    return missing(error as NodeJS.ErrnoException)
  }
}

/** The site settings' bytes and their hash ('' when the file is missing). */
export async function readSiteBytes(root: string): Promise<{ raw: Buffer | undefined; hash: string }> {
  const raw = await readFile(join(root, SITE_PATH)).catch(missing)
  return { raw, hash: raw ? createHash('sha256').update(raw).digest('hex') : '' }
}

/**
 * Stats taken just before each file was last read. `stale()` lists files
 * added, removed or rewritten since, by stat alone, without reading any.
 */
export class SourceStats {
  private stats = new Map<string, string>()

  constructor(private readonly root: string) {}

  /** Record the stat of `path` now; call before reading it, so a write in between is seen as stale. */
  async take(path: ContentPath): Promise<void> {
    this.stats.set(pathKey(path), await signature(join(this.root, pathKey(path))))
  }

  /** `take`, synchronously (see signatureSync). */
  takeSync(path: ContentPath): void {
    this.stats.set(pathKey(path), signatureSync(join(this.root, pathKey(path))))
  }

  /** The stat recorded for `path` when it was last read. */
  signatureOf(path: string): string | undefined {
    return this.stats.get(path)
  }

  forget(path: ContentPath): void {
    this.stats.delete(pathKey(path))
  }

  /**
   * Paths whose stat differs from the recorded one, including files that
   * appeared or went away; undefined when `interrupted()` said stop first.
   * It runs beside the watch mode's edits, so it never holds the thread for
   * long: the listing is gentle (listContentGently) and the stats go through
   * the thread pool a batch at a time.
   */
  async stale(known: Iterable<string>, interrupted: () => boolean = () => false): Promise<ContentPath[] | undefined> {
    const found: ContentPath[] = []
    if ((await signature(join(this.root, SITE_PATH))) !== this.stats.get(SITE_PATH)) found.push({ kind: 'site' })
    const listed = await listContentGently(this.root, interrupted)
    if (!listed) return undefined
    const present = new Set<string>()
    for (let i = 0; i < listed.length; i += PARALLEL_IO) {
      if (interrupted()) return undefined
      const batch = listed.slice(i, i + PARALLEL_IO)
      const signatures = await Promise.all(batch.map((p) => signature(join(this.root, p.path))))
      for (const [k, p] of batch.entries()) {
        present.add(p.path)
        if (signatures[k] !== this.stats.get(p.path)) found.push(p)
      }
    }
    for (const path of known) {
      if (present.has(path)) continue
      const [, collection, ...name] = path.split('/') as [string, CollectionName, ...string[]]
      found.push(itemPath(collection, name.join('/')))
    }
    return found
  }
}
