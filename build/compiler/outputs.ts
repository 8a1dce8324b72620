/**
 * The compiler's output: every file of the build in memory, by path relative
 * to dist/, each with its bytes and ETag. Emitters replace their own files; a
 * body that did not change keeps its object (and is not hashed again), and a
 * file an emitter no longer writes goes.
 */
import { etagOf } from '../../contract/etag.ts'
import type { BuildFile } from '../../contract/manifest.ts'
import type { EmittedFiles } from '../emit/types.ts'

export class OutputStore {
  private readonly files = new Map<string, BuildFile>()
  /** Which owner (an emitter, or an emitter and a collection) wrote each path, and the paths of each owner. */
  private readonly ownerOf = new Map<string, string>()
  private readonly paths = new Map<string, Set<string>>()
  /** Every path in sorted order, kept until a path comes or goes (an edit changes bodies, not paths). */
  private sorted: string[] | undefined

  /** Make `emitted` the whole output of `owner`. */
  replace(owner: string, emitted: EmittedFiles): void {
    const before = this.paths.get(owner) ?? new Set<string>()
    const after = new Set<string>()
    for (const [path, content] of Object.entries(emitted)) {
      const other = this.ownerOf.get(path)
      if (other !== undefined && other !== owner) throw new Error(`two emitters wrote ${path}: ${other} and ${owner}`)
      this.ownerOf.set(path, owner)
      after.add(path)
      this.set(path, content)
    }
    for (const path of before) {
      if (after.has(path)) continue
      this.sorted = undefined
      this.files.delete(path)
      this.ownerOf.delete(path)
    }
    this.paths.set(owner, after)
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
    for (const path of this.pathsOf(owner)) out[path] = this.files.get(path)!
    return out
  }

  /** Set one file (the manifest is set outside any emitter). An unchanged body keeps its object. */
  set(path: string, content: string | BuildFile): void {
    const previous = this.files.get(path)
    if (!previous) this.sorted = undefined
    if (typeof content !== 'string') {
      if (previous !== content) this.files.set(path, content)
      return
    }
    const body = Buffer.from(content)
    if (previous?.body.equals(body)) return
    this.files.set(path, { body, etag: etagOf(body) })
  }

  /** ETags of every file but `except`, in path order (the manifest's, which then sorts nothing). */
  etags(except: string): Map<string, string> {
    this.sorted ??= [...this.files.keys()].sort()
    const out = new Map<string, string>()
    for (const path of this.sorted) if (path !== except) out.set(path, this.files.get(path)!.etag)
    return out
  }

  /** A copy of the current files: later edits do not change it. */
  snapshot(): Map<string, BuildFile> {
    return new Map(this.files)
  }
}
