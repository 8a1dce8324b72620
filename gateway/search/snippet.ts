/**
 * Snippets: a window of an item's text around what matched a search, read
 * as if the text's whitespace runs were one space (and the text trimmed).
 * Only the window is collapsed: a hit's whole text is never copied, since
 * every search reads several hits' texts and copies of them are what an
 * agent's searches would leave for the collector.
 */
import { escapeRegExp } from '../../contract/regexp.ts'

const SNIPPET_LENGTH = 240
/** Of the window, this much comes before the match. */
const BEFORE = SNIPPET_LENGTH / 3
/** Collapsed characters read past the window's end, for its last word to end in. */
const AFTER = BEFORE + SNIPPET_LENGTH * 2

/**
 * A window of the text around the whole query if it occurs, else around the
 * first matched term; `at`: where that match starts in `text` (hit-section.ts
 * finds its section), -1 when the text has no match (the item matched on its
 * title, summary or tags).
 */
export function snippetOf(text: string, query: string, terms: readonly string[]): { snippet: string; at: number } {
  let first = 0
  let last = text.length
  while (first < last && isSpace(text.charCodeAt(first))) first++
  while (last > first && isSpace(text.charCodeAt(last - 1))) last--
  if (first === last) return { snippet: '', at: -1 }
  const phrase = query.trim()
  let at = phrase ? phraseIndex(text, phrase) : first
  if (at < 0) {
    const positions = terms.map((t) => wordIndex(text, t)).filter((i) => i >= 0)
    at = positions.length ? Math.min(...positions) : -1
  }
  // From here on, positions are in the collapsed piece [from, to) of the text.
  const match = Math.max(at, first)
  let from = match
  let before = 0
  while (from > first && before < BEFORE) {
    from--
    if (isSpace(text.charCodeAt(from))) while (from > first && isSpace(text.charCodeAt(from - 1))) from--
    before++
  }
  let to = match
  for (let after = 0; to < last && after < AFTER; after++) {
    if (isSpace(text.charCodeAt(to))) while (to < last && isSpace(text.charCodeAt(to))) to++
    else to++
  }
  const piece = text.slice(from, to).replace(/\s+/g, ' ')
  const more = to < last
  let start = Math.max(0, before - BEFORE)
  if (from > first || start > 0) start = piece.indexOf(' ', start) + 1 || start
  let end = Math.min(piece.length, start + SNIPPET_LENGTH)
  if (end < piece.length || more) end = piece.lastIndexOf(' ', end) > start ? piece.lastIndexOf(' ', end) : end
  const open = from > first || start > 0 ? '…' : ''
  const close = end < piece.length || more ? '…' : ''
  return { snippet: `${open}${piece.slice(start, end)}${close}`, at }
}

/** Where the query starts in the text, its words apart by any whitespace, in any case. */
function phraseIndex(text: string, query: string): number {
  const words = query.split(/\s+/).map(escapeRegExp)
  return text.search(new RegExp(words.join('\\s+'), 'iu'))
}

/** Position of `term` at the start of a word. */
function wordIndex(text: string, term: string): number {
  const m = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(term)}`, 'iu').exec(text)
  return m ? m.index + m[1]!.length : -1
}

/** What `\s` matches, by char code: no regular expression per character. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d)
  if (c < 0xa0) return false
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  )
}
