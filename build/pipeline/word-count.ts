/**
 * Word count with the exact result of `Intl.Segmenter('en', {granularity:
 * 'word'})` counting word-like segments, without segmenting every body,
 * which was the largest single cost of a cold build. Whitespace always ends a
 * word (UAX #29), so the text is split on it; tokens of ASCII, Latin letters
 * (é, ß, Ł) and the typographic punctuation of English prose (’ “ ” – — …)
 * are scanned with the UAX #29 rules that apply to them, anything else goes
 * to Intl. test/build/pipeline/word-count.test.ts checks the equivalence on
 * generated strings.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'word' })

/** UAX #29 word-break classes, as far as the scan needs them; 0: a character the scan leaves to Intl. */
const LETTER = 1
const DIGIT = 2
const UNDERSCORE = 4
const OTHER = 8
/** MidNumLet and Single_Quote: join letters to letters and digits to digits (`e.g.`, `don’t`, `1.5`). */
const MID_BOTH = 16
/** MidLetter: joins letters only (`a:b`). */
const MID_LETTER = 32
/** MidNum: joins digits only (`1,000`). */
const MID_NUM = 64
const WORD = LETTER | DIGIT | UNDERSCORE

/** Classes of U+0000 to U+024F: ASCII, Latin-1 and Latin Extended-A and -B. */
const CLASS = new Uint8Array(0x250)
for (let c = 0; c < 0x80; c++) CLASS[c] = OTHER
for (let c = 65; c <= 90; c++) CLASS[c] = LETTER
for (let c = 97; c <= 122; c++) CLASS[c] = LETTER
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT
CLASS[95] = UNDERSCORE
for (const c of ['.', "'"]) CLASS[c.charCodeAt(0)] = MID_BOTH
CLASS[':'.charCodeAt(0)] = MID_LETTER
for (const c of [',', ';']) CLASS[c.charCodeAt(0)] = MID_NUM
// Latin letters (× and ÷ are symbols), and ª µ º; the Latin-1 punctuation prose uses (¡ © « ® ° » ¿, no-break space).
for (let c = 0xc0; c < 0x250; c++) if (c !== 0xd7 && c !== 0xf7) CLASS[c] = LETTER
for (const c of [0xaa, 0xb5, 0xba]) CLASS[c] = LETTER
for (const c of [0xa0, 0xa1, 0xa9, 0xab, 0xae, 0xb0, 0xbb, 0xbf]) CLASS[c] = OTHER

/** The class of any character: typographic quotes and dashes beyond Latin; 0 for the rest. */
function classOf(c: number): number {
  if (c < 0x250) return CLASS[c]!
  if (c === 0x2018 || c === 0x2019) return MID_BOTH
  if (c === 0x201c || c === 0x201d || c === 0x2013 || c === 0x2014 || c === 0x2026) return OTHER
  return 0
}

/** The reference: word-like segments according to Intl. */
export function countWordsIntl(text: string): number {
  let count = 0
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) count++
  return count
}

/**
 * Words of `text` from `start` to `end` (a token between whitespace), or -1
 * when it has a character the scan leaves to Intl. Classes are looked up as
 * the scan goes: no array per token (a body has a thousand of them).
 */
function scanWords(text: string, start: number, end: number): number {
  for (let i = start; i < end; i++) if (!classOf(text.charCodeAt(i))) return -1
  let count = 0
  let i = start
  while (i < end) {
    if (!(classOf(text.charCodeAt(i)) & WORD)) {
      i++
      continue
    }
    const first = i
    for (;;) {
      while (i < end && classOf(text.charCodeAt(i)) & WORD) i++
      if (i + 1 >= end) break
      const mid = classOf(text.charCodeAt(i))
      const before = classOf(text.charCodeAt(i - 1))
      const after = classOf(text.charCodeAt(i + 1))
      // "e.g", "don't", "a:b" stay one word between letters; "1.5", "1,000", "1;2" between digits (WB6/7, WB11/12).
      const letters = before === LETTER && after === LETTER && (mid === MID_BOTH || mid === MID_LETTER)
      const digits = before === DIGIT && after === DIGIT && (mid === MID_BOTH || mid === MID_NUM)
      if (!letters && !digits) break
      i++
    }
    // Intl does not count a lone underscore as a word (but does count "__").
    if (!(i - first === 1 && text.charCodeAt(first) === 95)) count++
  }
  return count
}

/** ASCII whitespace (the split's: space, \t, \n, \v, \f, \r). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13)
}

export function countWords(text: string): number {
  let count = 0
  const n = text.length
  for (let i = 0; i < n; ) {
    while (i < n && isSpace(text.charCodeAt(i))) i++
    if (i === n) break
    const start = i
    while (i < n && !isSpace(text.charCodeAt(i))) i++
    const words = scanWords(text, start, i)
    count += words === -1 ? countWordsIntl(text.slice(start, i)) : words
  }
  return count
}
