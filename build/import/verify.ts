/**
 * What an import wrote, vetted by the project's own check (the build's
 * validation, without processing images): a file it finds an error in is
 * put back as it was (or removed, if the import made it) and reported with
 * the error, and the check runs again, since a file removed may be one
 * another linked to. Errors in files the import did not write are the
 * site's own: they are reported, and its files are left alone.
 */
import { ContentErrors } from '../core/errors.ts'
import type { ImportReport } from './report.ts'
import { type Undo, undoWrites } from './write-items.ts'

interface Written {
  path: string
  type: string
  title: string
  undo: Undo[]
}

/** Rounds of checking at most: each removes at least one file, and links between items are rarely deep. */
const ROUNDS = 5

export async function verifyWritten(root: string, written: Written[], report: ImportReport): Promise<void> {
  const { checkContent } = await import('../compiler/build.ts')
  let left = [...written]
  for (let round = 0; round < ROUNDS; round++) {
    let errors: ContentErrors | undefined
    try {
      await checkContent(root)
    } catch (error) {
      if (!(error instanceof ContentErrors)) throw error
      errors = error
    }
    if (!errors) return
    const bad = left.filter((w) => errors.errors.some((e) => w.undo.some((u) => u.path === e.file)))
    if (!bad.length) {
      report.siteErrors(errors.errors.map((e) => e.message))
      return
    }
    for (const w of bad) {
      await undoWrites(root, w.undo)
      const first = errors.errors.find((e) => w.undo.some((u) => u.path === e.file))!
      report.refused(w.type, w.title, w.path, first.message)
    }
    left = left.filter((w) => !bad.includes(w))
  }
}
