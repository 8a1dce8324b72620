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

/**
 * Call `visit` with each term of `text`, in order; with `stem` (a locale's,
 * stemming.ts), each word is stemmed before its accents are folded.
 *
 * `stemmed`: each word's term, kept across calls by a caller that reads much
 * text with one stemmer (the build's index): prose repeats its words, and a
 * Snowball stemmer and the folding cost far more than a lookup (without it, a
 * multilingual site's index spent most of its time stemming).
 *
 * @example
 * const stemmed = new Map<string, string>()
 * for (const doc of docs) forEachTerm(doc.text, add, stemmerOf('de'), stemmed)
 */
export function forEachTerm(
  text: string,
  visit: (term: string) => void,
  stem?: (word: string) => string,
  stemmed?: Map<string, string>,
): void {
  // Lower-case once; per term only when lower-casing changed the length (a few non-ASCII letters do).
  const lower = text.toLowerCase()
  // V8 may hand back a string it has not laid out flat yet, and every slice of one
  // pays for that again: read one character to flatten it.
  lower.charCodeAt(0)
  const aligned = lower.length === text.length
  let start = -1
  let ascii = true
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32
    // ASCII letters and digits without a regex: most text is ASCII.
    const word = c < 128 ? (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) : isWordChar(text, i)
    if (word) {
      if (start < 0) {
        start = i
        ascii = true
      }
      if (c >= 128) ascii = false
      continue
    }
    if (start < 0) continue
    if (i - start <= MAX_TERM_LENGTH) {
      const term = stem
        ? stemWord(aligned ? lower.slice(start, i) : text.slice(start, i).toLowerCase(), stem, stemmed)
        : ascii && aligned
          ? lower.slice(start, i)
          : fold(text.slice(start, i))
      if (term) visit(term)
    }
    start = -1
  }
}

/** The terms of `text`, in order (duplicates kept). */
export function termsOf(text: string, stem?: (word: string) => string): string[] {
  const out: string[] = []
  forEachTerm(text, (t) => out.push(t), stem)
  return out
}

function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i)
  // A surrogate pair is one character: test it whole (its low half belongs to the same run).
  if (c >= 0xdc00 && c <= 0xdfff) return i > 0 && isWordChar(text, i - 1)
  const char = c >= 0xd800 && c <= 0xdbff ? text.slice(i, i + 2) : text[i]!
  return WORD_CHAR.test(char)
}

function stemWord(word: string, stem: (word: string) => string, stemmed: Map<string, string> | undefined): string {
  let term = stemmed?.get(word)
  if (term === undefined) {
    term = fold(stem(word))
    stemmed?.set(word, term)
  }
  return term
}

function fold(term: string): string {
  return term.normalize('NFD').replace(MARKS, '').toLowerCase()
}
