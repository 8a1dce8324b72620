/**
 * One section of a body, by its heading's id (a `toc` entry's): the heading
 * and everything up to the next heading of the same or a higher level, as
 * Markdown. The record's `toc` says which headings the renderer saw and
 * their ids; the Markdown's own headings (ATX `#` and setext underlines,
 * outside code fences, in block quotes and components too) say where each
 * one is written, matched to the toc in order and by level.
 */
import { closest } from './did-you-mean.ts'
import type { TocEntry } from './records.ts'

export interface Section {
  id: string
  text: string
  depth: number
  markdown: string
}

const PREFIX = /^(?:\s{0,3}>\s?)*/
const FENCE = /^\s{0,3}(`{3,}|~{3,})/
const ATX = /^\s{0,3}(#{1,6})(?:[ \t]|$)/
const SETEXT = /^\s{0,3}(=+|-+)\s*$/
const OPENS_COMPONENT = /^(?:\s*>)*\s*:::+[A-Za-z]/
const NOT_PARAGRAPH = /^\s*(?:$|[-*+]\s|\d+[.)]\s|#|:::|```|~~~|<)/

interface Written {
  line: number
  depth: number
}

/** The headings as written, in order: the line each starts on and its level. */
function writtenHeadings(lines: readonly string[]): Written[] {
  const out: Written[] = []
  let fence: string | undefined
  for (const [k, raw] of lines.entries()) {
    const line = raw.replace(PREFIX, '')
    const marker = FENCE.exec(line)?.[1]
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
      continue
    }
    if (marker) {
      fence = marker
      continue
    }
    const atx = ATX.exec(line)
    if (atx) {
      out.push({ line: k, depth: atx[1]!.length })
      continue
    }
    const setext = SETEXT.exec(line)
    const previous = k > 0 ? lines[k - 1]!.replace(PREFIX, '') : ''
    if (setext && !NOT_PARAGRAPH.test(previous) && out.at(-1)?.line !== k - 1)
      out.push({ line: k - 1, depth: setext[1]![0] === '=' ? 1 : 2 })
  }
  return out
}

/** Letters and digits only, lower case: a heading's text as written and as rendered compare so. */
const bare = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')

/**
 * Each toc entry with the line its heading is written on, in toc order: the
 * next written heading of its level whose line has its text (markup aside),
 * else the next of its level (a heading the scan missed is skipped over).
 */
function located(lines: readonly string[], toc: readonly TocEntry[]): (TocEntry & { line: number })[] {
  const written = writtenHeadings(lines)
  const out: (TocEntry & { line: number })[] = []
  let at = 0
  for (const entry of toc) {
    const text = bare(entry.text)
    const level = (k: number) => written[k]!.depth === entry.depth
    let k = at
    while (k < written.length && !(level(k) && bare(lines[written[k]!.line]!).includes(text))) k++
    if (k === written.length) {
      k = at
      while (k < written.length && !level(k)) k++
    }
    if (k === written.length) continue
    out.push({ ...entry, line: written[k]!.line })
    at = k + 1
  }
  return out
}

/** The section under the heading `id`, or undefined when no heading of the body has that id. */
export function sectionOf(markdown: string, toc: readonly TocEntry[], id: string): Section | undefined {
  const lines = markdown.split('\n')
  const headings = located(lines, toc)
  const k = headings.findIndex((entry) => entry.id === id)
  if (k === -1) return undefined
  const heading = headings[k]!
  const next = headings.slice(k + 1).find((entry) => entry.depth <= heading.depth)
  const body = lines.slice(heading.line, next?.line ?? lines.length)
  // A component the next heading is inside of opens after this section: its opening line is not this section's.
  while (body.length > 1 && (!body.at(-1)!.trim() || OPENS_COMPONENT.test(body.at(-1)!))) body.pop()
  return { id, text: heading.text, depth: heading.depth, markdown: body.join('\n').trimEnd() }
}

/** Why `id` names no section: the ids there are, the closest first. */
export function unknownSectionMessage(id: string, toc: readonly TocEntry[]): string {
  if (!toc.length) return `This item has no sections (no headings), so there is no section "${id}"; leave section out.`
  const ids = toc.map((entry) => entry.id)
  const near = closest(id, ids, Math.max(2, Math.floor(id.length / 3)))
  return `No section "${id}" in this item${near ? ` (did you mean "${near}"?)` : ''}. Its sections: ${ids.join(', ')}.`
}
