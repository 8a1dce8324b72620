/**
 * An author error of a multilingual site that no single file shows: two
 * files claiming one locale of an item. The translations' other such
 * checks are translation-checks.ts'.
 */
import { ContentError } from '../core/errors.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { addToSet, deleteFromSet } from '../core/set-map.ts'

const byPath = (a: CompiledFile, b: CompiledFile) => (a.source.path < b.source.path ? -1 : 1)

/**
 * The files claiming each item's locale (`collection/key@locale`), kept up to
 * date file by file: an edit costs a lookup, not a pass over every file.
 * Two claims of one locale are an author error: `x.md` and `x/index.md`, or
 * `x.de.md` and `x/index.de.md`.
 */
export class LocaleClaims {
  private readonly claims = new Map<string, Set<CompiledFile>>()
  /** The ids claimed more than once. */
  private readonly twice = new Set<string>()
  private readonly ids = new WeakMap<CompiledFile, string>()

  add(file: CompiledFile): void {
    const id = `${file.collection}/${file.key}@${file.locale}`
    this.ids.set(file, id)
    if (addToSet(this.claims, id, file) > 1) this.twice.add(id)
  }

  delete(file: CompiledFile): void {
    const id = this.ids.get(file)
    if (id === undefined || !deleteFromSet(this.claims, id, file)) return
    if ((this.claims.get(id)?.size ?? 0) < 2) this.twice.delete(id)
  }

  clear(): void {
    this.claims.clear()
    this.twice.clear()
  }

  /** A second file (in path order) claiming a locale its item already has. */
  errors(): ContentError[] {
    const errors: ContentError[] = []
    for (const id of this.twice) {
      const [first, ...later] = [...this.claims.get(id)!].sort(byPath) as [CompiledFile, ...CompiledFile[]]
      for (const file of later)
        errors.push(
          new ContentError(
            'LOCALE',
            file.source.path,
            1,
            1,
            'locale',
            `is a second ${file.locale} file of the item "${file.key}": ${first.source.path} already is; an item has one file per locale (remove or rename one)`,
          ),
        )
    }
    return errors
  }
}
