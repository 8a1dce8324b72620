/**
 * The section a hit's best match is in: the last heading of the record's
 * `toc` before the match, found in the record's text, where each heading
 * stands on a line of its own (the render writes block elements on lines of
 * their own). Nothing is stored for it in the index: the hit's record is
 * read for its snippet anyway, and its toc and text say where the sections
 * start.
 */
import type { TocEntry } from '../../contract/records.ts'

export interface HitSection {
  id: string
  text: string
  /** The record's page with the section's anchor: `url#id` (the id percent-encoded, as a URI has it). */
  url: string
}

/**
 * The section holding position `at` of the text (where the snippet found the
 * match); null before the first heading or when the body has none.
 */
export function sectionAt(text: string, toc: readonly TocEntry[], at: number, url: string): HitSection | null {
  if (!toc.length || at < 0) return null
  let found: TocEntry | undefined
  for (const start of headingStarts(text, toc)) if (start.offset <= at) found = start.entry
  return found ? { id: found.id, text: found.text, url: `${url}#${encodeURIComponent(found.id)}` } : null
}

/** Where each heading's line starts in the text, in toc order (a heading not found is left out). */
function headingStarts(text: string, toc: readonly TocEntry[]): { entry: TocEntry; offset: number }[] {
  const out: { entry: TocEntry; offset: number }[] = []
  let from = 0
  for (const entry of toc) {
    let offset = text.indexOf(entry.text, from)
    while (offset !== -1 && !ownLine(text, offset, entry.text.length)) offset = text.indexOf(entry.text, offset + 1)
    if (offset === -1) continue
    out.push({ entry, offset })
    from = offset + entry.text.length
  }
  return out
}

function ownLine(text: string, offset: number, length: number): boolean {
  const before = offset === 0 || text[offset - 1] === '\n'
  const end = offset + length
  return before && (end === text.length || text[end] === '\n')
}
