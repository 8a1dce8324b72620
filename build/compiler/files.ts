/**
 * A snapshot of the build's files that shares the unchanged ones: a base map
 * (never changed once shared) and the changes made since it (null: removed).
 * A Map to its readers (the dev server's store takes a Map), so it answers
 * every read through the two; it holds no entries of its own.
 */
import type { BuildFile } from '../../contract/manifest.ts'

export class LayeredFiles extends Map<string, BuildFile> {
  private readonly count: number

  constructor(
    private readonly base: ReadonlyMap<string, BuildFile>,
    private readonly changes: ReadonlyMap<string, BuildFile | null>,
  ) {
    super()
    let count = base.size
    for (const [path, file] of changes) {
      const before = base.has(path)
      if (file && !before) count++
      else if (!file && before) count--
    }
    this.count = count
  }

  override get size(): number {
    return this.count
  }

  override get(path: string): BuildFile | undefined {
    const changed = this.changes.get(path)
    return changed === undefined ? this.base.get(path) : (changed ?? undefined)
  }

  override has(path: string): boolean {
    return this.get(path) !== undefined
  }

  override *entries(): MapIterator<[string, BuildFile]> {
    for (const [path, file] of this.base) if (!this.changes.has(path)) yield [path, file]
    for (const [path, file] of this.changes) if (file) yield [path, file]
  }

  override *keys(): MapIterator<string> {
    for (const [path] of this.entries()) yield path
  }

  override *values(): MapIterator<BuildFile> {
    for (const [, file] of this.entries()) yield file
  }

  override [Symbol.iterator](): MapIterator<[string, BuildFile]> {
    return this.entries()
  }

  override forEach(callback: (file: BuildFile, path: string, map: Map<string, BuildFile>) => void): void {
    for (const [path, file] of this.entries()) callback(file, path, this)
  }

  override set(): this {
    throw new Error('a snapshot of the build files is read-only')
  }

  override delete(): boolean {
    throw new Error('a snapshot of the build files is read-only')
  }

  override clear(): void {
    throw new Error('a snapshot of the build files is read-only')
  }
}
