/** Snippets: a window of an item's text around what matched a search. */

const SNIPPET_LENGTH = 240

/**
 * A window of the text around the whole query if it occurs, else around the
 * first matched term; `at`: where that match is in the text with its
 * whitespace collapsed (hit-section.ts finds its section), -1 when the
 * text has no match (the item matched on its title, summary or tags).
 */
export function snippetOf(text: string, query: string, terms: readonly string[]): { snippet: string; at: number } {
  const flat = text.replace(/\s+/g, ' ').trim()
  const lower = flat.toLowerCase()
  let at = lower.indexOf(query.trim().toLowerCase())
  if (at < 0) {
    const positions = terms.map((t) => wordIndex(lower, t)).filter((i) => i >= 0)
    at = positions.length ? Math.min(...positions) : -1
  }
  let start = Math.max(0, at - SNIPPET_LENGTH / 3)
  if (start > 0) start = flat.indexOf(' ', start) + 1 || start
  let end = Math.min(flat.length, start + SNIPPET_LENGTH)
  if (end < flat.length) end = flat.lastIndexOf(' ', end) > start ? flat.lastIndexOf(' ', end) : end
  return { snippet: `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`, at }
}

/** Position of `term` at the start of a word. */
function wordIndex(lower: string, term: string): number {
  const re = new RegExp(`(^|[^\\p{L}\\p{N}])${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u')
  const m = re.exec(lower)
  return m ? m.index + m[1]!.length : -1
}
