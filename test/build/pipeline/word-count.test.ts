/** The word count is UAX #29's word-like segments: joiners, underscores, scripts without spaces. */
import { describe, expect, it } from 'vitest'
import { countWords } from '../../../build/pipeline/word-count.ts'

describe('countWords', () => {
  it('counts the tricky cases as UAX #29 does', () => {
    for (const [text, expected] of [
      ["e.g. 1,000 naïve don't a_b _ __ a.1 東京都", 10],
      ["e.g. 1,000 naïve don't", 4],
      ['', 0],
      ['  \n\t ', 0],
      ['Tokyo東京 — real-time', 4],
      ['“Quoted,” she said… – twice', 4],
    ] as const) {
      expect(countWords(text), text).toBe(expected)
    }
  })
})
