/**
 * How text becomes search terms, the same at build time (the index) and at
 * query time (the gateway): runs of letters and digits, lower-cased, with
 * accents folded (`Saúde` → `saude`), so a query finds what a reader would
 * call the same word. Everything else separates terms.
 */

/** Longest term kept: longer runs are hashes or data, never words a person types. */
export const MAX_TERM_LENGTH = 40

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u
const MARKS = /\p{M}/gu

/** Call `visit` with each term of `text`, in order. */
export function forEachTerm(text: string, visit: (term: string) => void): void {
  let start = -1
  let ascii = true
  const end = () => {
    const raw = text.slice(start, i)
    start = -1
    if (raw.length > MAX_TERM_LENGTH) return
    const term = ascii ? raw.toLowerCase() : fold(raw)
    if (term) visit(term)
  }
  let i = 0
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // ASCII letters and digits without a regex: most text is ASCII.
    const word = c < 128 ? (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) : isWordChar(text, i)
    if (word) {
      if (start < 0) {
        start = i
        ascii = true
      }
      if (c >= 128) ascii = false
    } else if (start >= 0) end()
  }
  if (start >= 0) end()
}

/** The terms of `text`, in order (duplicates kept). */
export function termsOf(text: string): string[] {
  const out: string[] = []
  forEachTerm(text, (t) => out.push(t))
  return out
}

function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i)
  // A surrogate pair is one character: test it whole (its low half belongs to the same run).
  if (c >= 0xdc00 && c <= 0xdfff) return i > 0 && isWordChar(text, i - 1)
  const char = c >= 0xd800 && c <= 0xdbff ? text.slice(i, i + 2) : text[i]!
  return WORD_CHAR.test(char)
}

function fold(term: string): string {
  return term.normalize('NFD').replace(MARKS, '').toLowerCase()
}
