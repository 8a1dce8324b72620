/** The fast word count must equal Intl.Segmenter's count of word-like segments, for any text. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countWords, countWordsIntl } from '../../../build/pipeline/word-count.ts'

// Characters around which the UAX #29 rules differ: joiners, underscore, spaces, Latin letters and punctuation,
// typographic quotes and dashes, symbols, marks, soft hyphens, CJK, emoji.
const CHARS = [
  'a',
  'b',
  'Z',
  '1',
  '2',
  '_',
  '.',
  "'",
  ':',
  ',',
  ';',
  ' ',
  '-',
  '\n',
  '\t',
  'é',
  '—',
  '東',
  '\u0301',
  '\u00a0',
  '"',
  '(',
  '/',
  '’',
  '@',
  '#',
  '%',
  '\u200d',
  '😀',
  'Ö',
  'ß',
  'Ł',
  'ő',
  'ñ',
  '×',
  '÷',
  '·',
  '‘',
  '“',
  '”',
  '–',
  '…',
  'ª',
  'µ',
  '«',
  '¿',
  '©',
  '\u00ad',
  '\u2024',
]

describe('countWords', () => {
  it('counts like Intl.Segmenter on generated text', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CHARS), { maxLength: 40 }), (chars) => {
        const text = chars.join('')
        expect(countWords(text)).toBe(countWordsIntl(text))
      }),
      { numRuns: 20_000 },
    )
  })

  it('counts the tricky cases Intl counts', () => {
    for (const [text, expected] of [
      ["e.g. 1,000 naïve don't a_b _ __ a.1 東京都", 10],
      ['', 0],
      ['Tokyo東京 — real-time', 4],
    ] as const) {
      expect(countWordsIntl(text)).toBe(expected)
      expect(countWords(text)).toBe(expected)
    }
  })
})
