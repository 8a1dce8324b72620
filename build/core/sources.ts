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
import { readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { COLLECTION_NAMES, isCollectionName, type CollectionName } from '../../contract/collections.ts'

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

/** Files under content/ that items may use as images (the build checks them further). */
const ASSET = /\.(?:jpe?g|png|webp|avif|gif)$/i

const PARALLEL_IO = 64

/** Classify a file path under `root`; undefined for files the build does not read. */
export function classify(root: string, file: string): ContentPath | undefined {
  const rel = relative(root, file).split(sep).join('/')
  if (rel === SITE_PATH) return { kind: 'site' }
  const parts = rel.split('/')
  if (parts[0] === 'content' && ASSET.test(rel) && !parts.includes('..')) return { kind: 'asset', path: rel }
  if (parts[0] !== 'content' || !isCollectionName(parts[1]!) || !rel.endsWith('.md')) return undefined
  if (parts.length === 3) return itemPath(parts[1], parts[2]!)
  // An item's folder: its index.md and the translations beside it (index.de.md).
  if (parts.length === 4 && /^index(?:\.[^.]+)?\.md$/.test(parts[3]!) && !parts[2]!.startsWith('.'))
    return itemPath(parts[1], `${parts[2]}/${parts[3]}`)
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
 * Every Markdown file of every collection, sorted by collection then name:
 * the order a build reads them in. Read synchronously: it runs once when a
 * build or the no-change check starts, with nothing to overlap, and a folder
 * per item makes it thousands of listings, each a thread-pool round trip
 * when asynchronous.
 */
export function listContent(root: string): (ContentPath & { kind: 'item' })[] {
  const out: (ContentPath & { kind: 'item' })[] = []
  for (const collection of COLLECTION_NAMES) {
    const folder = join(root, 'content', collection)
    const names: string[] = []
    for (const entry of listing(folder, 'missing')) {
      if (entry.isDirectory() && !entry.name.startsWith('.')) {
        for (const inner of listing(join(folder, entry.name), 'any'))
          if (/^index(?:\.[^.]+)?\.md$/.test(inner.name)) names.push(`${entry.name}/${inner.name}`)
      } else if (entry.name.endsWith('.md')) names.push(entry.name)
    }
    for (const name of names.sort()) out.push(itemPath(collection, name))
  }
  return out
}

/** A folder's entries; none when it is missing (or, with `any`, unreadable for any reason). */
function listing(folder: string, none: 'missing' | 'any'): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
  } catch (error) {
    if (none === 'any' || (error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
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
 * added, removed or rewritten since, by stat alone: 10,000 files cost tens of
 * milliseconds.
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
   * appeared or went away; undefined when `interrupted()` said stop first
   * (10,000 stats keep the thread busy for as long as an edit would wait).
   */
  async stale(known: Iterable<string>, interrupted: () => boolean = () => false): Promise<ContentPath[] | undefined> {
    const found: ContentPath[] = []
    if ((await signature(join(this.root, SITE_PATH))) !== this.stats.get(SITE_PATH)) found.push({ kind: 'site' })
    const listed = await listContent(this.root)
    const signatures: string[] = []
    for (let i = 0; i < listed.length; i += PARALLEL_IO) {
      if (interrupted()) return undefined
      const batch = listed.slice(i, i + PARALLEL_IO)
      signatures.push(...(await Promise.all(batch.map((p) => signature(join(this.root, p.path))))))
    }
    for (const [i, p] of listed.entries()) if (signatures[i] !== this.stats.get(p.path)) found.push(p)
    const present = new Set(listed.map((p) => p.path))
    for (const path of known) {
      if (present.has(path)) continue
      const [, collection, ...name] = path.split('/') as [string, CollectionName, ...string[]]
      found.push(itemPath(collection, name.join('/')))
    }
    return found
  }
}
