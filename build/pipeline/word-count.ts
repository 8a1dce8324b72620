/**
 * Word count with the exact result of `Intl.Segmenter('en', {granularity:
 * 'word'})` counting word-like segments, about 40× faster: segmenting every
 * body was the largest single cost of a cold build. Whitespace always ends a
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

const ASCII_SPACE = /[ \t\n\r\f\v]+/

/** The reference: word-like segments according to Intl. */
export function countWordsIntl(text: string): number {
  let count = 0
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) count++
  return count
}

/** Words of a token, or -1 when it has a character the scan leaves to Intl. */
function scanWords(token: string): number {
  const n = token.length
  const classes = new Uint8Array(n)
  for (let i = 0; i < n; i++) if (!(classes[i] = classOf(token.charCodeAt(i)))) return -1
  let count = 0
  let i = 0
  while (i < n) {
    if (!(classes[i]! & WORD)) {
      i++
      continue
    }
    const start = i
    for (;;) {
      while (i < n && classes[i]! & WORD) i++
      if (i + 1 >= n) break
      const mid = classes[i]!
      const before = classes[i - 1]!
      const after = classes[i + 1]!
      // "e.g", "don't", "a:b" stay one word between letters; "1.5", "1,000", "1;2" between digits (WB6/7, WB11/12).
      const letters = before === LETTER && after === LETTER && (mid === MID_BOTH || mid === MID_LETTER)
      const digits = before === DIGIT && after === DIGIT && (mid === MID_BOTH || mid === MID_NUM)
      if (!letters && !digits) break
      i++
    }
    // Intl does not count a lone underscore as a word (but does count "__").
    if (!(i - start === 1 && token.charCodeAt(start) === 95)) count++
  }
  return count
}

export function countWords(text: string): number {
  let count = 0
  for (const token of text.split(ASCII_SPACE)) {
    if (!token) continue
    const words = scanWords(token)
    count += words === -1 ? countWordsIntl(token) : words
  }
  return count
}
