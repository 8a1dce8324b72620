/**
 * The compiler's output: every file of the build in memory, by path relative
 * to dist/, each with its bytes and ETag. Emitters replace their own files
 * (whole-content emitters) or send what changed (per-collection emitters); a
 * body that did not change keeps its object (and is not hashed again), and a
 * file an emitter no longer writes goes.
 *
 * Everything here costs what changed, not what there is: a snapshot is the
 * files of the last compaction plus the changes since (files.ts), and the
 * build id is kept by difference (digest.ts): a copy of the whole file map,
 * or hashing it whole, would make every edit cost in proportion to the site.
 */
import { etagOf } from '../../contract/etag.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import type { EmittedDelta, EmittedFiles } from '../emit/types.ts'
import { BuildDigest } from './digest.ts'
import { LayeredFiles } from './files.ts'

export class OutputStore {
  /** The files as of the last compaction (never changed: snapshots share it) and the changes since (null: removed). */
  private base: ReadonlyMap<string, BuildFile> = new Map()
  private changes = new Map<string, BuildFile | null>()
  /** Which owner (an emitter, or an emitter and a collection) wrote each path, and the paths of each owner. */
  private readonly ownerOf = new Map<string, string>()
  private readonly paths = new Map<string, Set<string>>()
  private readonly digest: BuildDigest
  /** Paths set or removed since `track()`. */
  private touched = new Set<string>()

  /** `unhashed`: the one path the build id leaves out (the manifest, which carries it). */
  constructor(private readonly unhashed: string) {
    this.digest = new BuildDigest()
  }

  /** Start collecting the paths that change (`changedSinceTrack`). */
  track(): void {
    this.touched = new Set()
  }

  /** The paths whose file changed, came or went since `track()`, sorted. */
  changedSinceTrack(): string[] {
    return [...this.touched].sort()
  }

  /** The file at `path` now. */
  get(path: string): BuildFile | undefined {
    const changed = this.changes.get(path)
    return changed === undefined ? this.base.get(path) : (changed ?? undefined)
  }

  /** Make `emitted` the whole output of `owner`. */
  replace(owner: string, emitted: EmittedFiles): void {
    const before = this.paths.get(owner) ?? new Set<string>()
    const after = new Set<string>()
    for (const [path, content] of Object.entries(emitted)) {
      this.claim(owner, path)
      after.add(path)
      this.set(path, content)
    }
    for (const path of before) if (!after.has(path)) this.remove(path)
    this.paths.set(owner, after)
  }

  /** Apply what changed in the output of `owner`. */
  update(owner: string, delta: EmittedDelta): void {
    let mine = this.paths.get(owner)
    if (!mine) this.paths.set(owner, (mine = new Set()))
    for (const path of delta.removed) {
      if (!mine.delete(path)) continue
      this.remove(path)
    }
    for (const [path, content] of Object.entries(delta.files)) {
      this.claim(owner, path)
      mine.add(path)
      this.set(path, content)
    }
  }

  /** Paths written by owners other than those `exclude` accepts. */
  pathsExcept(exclude: (owner: string) => boolean): string[] {
    const out: string[] = []
    for (const [owner, paths] of this.paths) if (!exclude(owner)) out.push(...paths)
    return out
  }

  /** The paths `owner` wrote. */
  pathsOf(owner: string): ReadonlySet<string> {
    return this.paths.get(owner) ?? new Set()
  }

  /** The files `owner` wrote. */
  filesOf(owner: string): Record<string, BuildFile> {
    const out: Record<string, BuildFile> = {}
    for (const path of this.pathsOf(owner)) out[path] = this.get(path)!
    return out
  }

  /** Set one file (the manifest is set outside any emitter). An unchanged body keeps its object. */
  set(path: string, content: string | BuildFile): void {
    const previous = this.get(path)
    let file: BuildFile
    if (typeof content !== 'string') {
      if (previous === content) return
      file = content
    } else {
      const body = Buffer.from(content)
      if (previous?.body.equals(body)) return
      file = { body, etag: etagOf(body) }
    }
    if (previous?.etag === file.etag && previous.body.equals(file.body)) return
    this.changes.set(path, file)
    this.touched.add(path)
    if (path !== this.unhashed) this.digest.set(path, file.etag)
  }

  /** The build id of the files as they are now (all but the manifest). */
  buildId(): string {
    return this.digest.id()
  }

  /**
   * The current files, as a map later changes leave alone. Cheap: the
   * changes since the last compaction are copied, and they are folded into a
   * new base once they grow past a share of it.
   */
  snapshot(): ReadonlyMap<string, BuildFile> {
    if (this.changes.size > 256 + this.base.size / 8) {
      const merged = new Map(this.base)
      for (const [path, file] of this.changes) {
        if (file) merged.set(path, file)
        else merged.delete(path)
      }
      this.base = merged
      this.changes = new Map()
    }
    return new LayeredFiles(this.base, new Map(this.changes))
  }

  private claim(owner: string, path: string): void {
    const other = this.ownerOf.get(path)
    if (other !== undefined && other !== owner) throw new Error(`two emitters wrote ${path}: ${other} and ${owner}`)
    this.ownerOf.set(path, owner)
  }

  private remove(path: string): void {
    if (this.get(path) === undefined) return
    this.changes.set(path, null)
    this.ownerOf.delete(path)
    this.touched.add(path)
    if (path !== this.unhashed) this.digest.delete(path)
  }
}
